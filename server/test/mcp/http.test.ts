/**
 * POST /mcp on the real app (port 0), with the MCP SDK's own client over Streamable HTTP:
 * the same keys, tiers and rate limits as the REST routes.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { buildMcpApp } from './board';
import { expectSameAsRest, TOOL_CALLS, textOf } from './same-as-rest';

let t: TestApp;
let base: URL;
const clients: Client[] = [];

beforeAll(async () => {
  t = await buildMcpApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = new URL(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/mcp`);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await t.close();
});

async function connect(key: string | undefined): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(base, {
    requestInit: { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return { result, text: first?.type === 'text' ? first.text : '' };
}

describe('POST /mcp', () => {
  it("answers the MCP guide's curl lines as written: tools/list, then one tools/call", async () => {
    const readme = readFileSync(new URL('../../../docs/mcp.md', import.meta.url), 'utf8');
    const section = readme;
    // The block sits in a list item, indented by two spaces.
    const block = (/```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '').replace(/^ {2}/gm, '');
    const commands = block.split(/\n(?=curl )/).filter((line) => line.startsWith('curl '));
    expect(commands).toHaveLength(2);
    const answers = [];
    for (const command of commands) {
      expect(command).toContain('http://127.0.0.1:8787/mcp -H "Authorization: Bearer $PROPS_API_KEY"');
      const headers = Object.fromEntries(
        [...command.matchAll(/-H '([^:']+): ([^']+)'/g)].map(([, name, value]) => [name, value]),
      );
      const body = /-d '([^']+)'/.exec(command)?.[1];
      const res = await fetch(base, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${t.keys.free}` },
        body,
      });
      expect(res.status, body).toBe(200);
      answers.push((await res.json()) as { result: { tools?: unknown[]; isError?: boolean; content?: unknown[] } });
    }
    expect(answers[0]?.result.tools).toHaveLength(12);
    expect(answers[1]?.result.isError).toBeUndefined();
    expect(answers[1]?.result.content).not.toHaveLength(0);
  });

  it('lists the twelve tools', async () => {
    const { tools } = await (await connect(t.keys.free)).listTools();
    expect(tools).toHaveLength(12);
  });

  it('calls each tool for a pro key: the same answer as the REST route', async () => {
    const client = await connect(t.keys.pro);
    const texts = new Map<string, string>();
    for (const { tool, args, path } of TOOL_CALLS) {
      const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      const rest = await t.get(`/api/v1${path}`, t.keys.pro);
      expect(rest.statusCode, `${tool}: ${rest.body}`).toBe(200);
      expectSameAsRest(tool, result, rest);
      texts.set(tool, textOf(result));
    }
    expect(texts.get('find_player_props')).toMatch(/LeBron James\s+points\s+25.5\s+-115\s+-105\s+2\s+27.1\s/);
    expect(texts.get('get_player_context')).toMatch(/points\s+25.5\s+27.2\s+27.2\s+27\s+29.3\s+25\s+67%\s+6\s+27.1/);
    expect(texts.get('get_prop_history')).toContain('underdog: opened 24.5 at 2026-11-21 23:30Z, now 25.5 (2 changes)');
    expect(texts.get('scan_movers')).toMatch(/LeBron James\s+points\s+24.5\s+25.5\s+\+1\s+up/);
    const lal = await call(client, 'find_game', { team: 'LAL' });
    expect(lal.text).toMatch(/^GAME\s+SPORT\s+MATCHUP/);
    expect(lal.text).toMatch(/pp_100\s+nba\s+Boston Celtics @ Los Angeles Lakers/);
    const dodgers = await call(client, 'find_game', { team: 'dodgers' });
    expect(dodgers.text).toMatch(/pp_300\s+mlb\s+New York Yankees @ Los Angeles Dodgers/);
  });

  it('a pro tool with a free key is a tool error naming the tier', async () => {
    const client = await connect(t.keys.free);
    const { result, text } = await call(client, 'scan_movers', {});
    expect(result.isError).toBe(true);
    expect(text).toContain('(error: route_not_in_tier)');
    expect(text).toContain('needs the pro tier or higher');
    const mlb = await call(client, 'list_games', { sport: 'mlb' });
    expect(mlb.result.isError).toBe(true);
    expect(mlb.text).toContain('(error: sport_not_in_tier)');
  });

  it('bad arguments are a clear tool error', async () => {
    const { result, text } = await call(await connect(t.keys.free), 'scan_props', { limit: 'lots' });
    expect(result.isError).toBe(true);
    expect(text).toMatch(/Invalid arguments for tool scan_props: .*limit/);
  });

  it('refuses a missing or unknown key with the API error', async () => {
    await expect(connect(undefined)).rejects.toThrow(/missing_api_key/);
    await expect(connect(`pf_${'x'.repeat(32)}`)).rejects.toThrow(/invalid_api_key/);
  });

  it('counts MCP messages against the key, and over the limit says when to retry', async () => {
    const key = await t.createKey({ tier: 'enterprise', rpm: 4, rpd: 1000 });
    const client = await connect(key); // initialize + initialized: 2 requests
    expect((await call(client, 'list_sports')).result.isError).toBeFalsy(); // 3
    const me = await t.get('/api/v1/me', key); // 4: the REST route and /mcp share the count
    expect(me.json().usage.today).toBe(4);
    const refused = client.callTool({ name: 'list_sports', arguments: {} });
    await expect(refused).rejects.toThrow(/retry in \d+ s.*rate_limited/);
  });

  it('answers GET with 405: the endpoint is stateless', async () => {
    const res = await t.inject({ method: 'GET', url: '/mcp', headers: { authorization: `Bearer ${t.keys.free}` } });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

/** A raw POST /mcp, as a client that does not use the SDK would send it. */
async function post(body: string, key?: string): Promise<Response> {
  return fetch(base, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
    },
    body,
  });
}

const scanProps = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'scan_props', arguments: {} },
});

describe('POST /mcp under abuse: one message per request, JSON-RPC errors throughout', () => {
  it('refuses a batch with a JSON-RPC error and runs none of it: a batch cannot buy many calls for one', async () => {
    const key = await t.createKey({ tier: 'enterprise', rpm: 1000, rpd: 1000 });
    const batch = Array.from({ length: 100 }, (_, i) => scanProps(i + 1));
    const res = await post(JSON.stringify(batch), key);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(body.error.message).toMatch(/batch.*one JSON-RPC message per POST/i);
    // The refused POST is one request: it was authenticated and counted, and did no tool work.
    expect((await t.get('/api/v1/me', key)).json().usage.today).toBe(2);
  });

  it('answers a missing or unknown key with its HTTP status and a JSON-RPC error body', async () => {
    for (const key of [undefined, `pf_${'x'.repeat(32)}`]) {
      const res = await post(JSON.stringify(scanProps(7)), key);
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(body).toMatchObject({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32000, data: { error: key === undefined ? 'missing_api_key' : 'invalid_api_key' } },
      });
      expect(body.error.message).toMatch(/key/);
    }
  });

  it('answers over the limit with 429, Retry-After and a JSON-RPC error body', async () => {
    const key = await t.createKey({ tier: 'enterprise', rpm: 1, rpd: 1000 });
    expect((await post(JSON.stringify(scanProps(1)), key)).status).toBe(200);
    const res = await post(JSON.stringify(scanProps(2)), key);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32000, data: { error: 'rate_limited' } } });
    expect(body.error.data.retryAfter).toBeGreaterThan(0);
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    const res = await post('{"jsonrpc":', t.keys.free);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('answers a __proto__ key with an invalid-request error naming it, not a parse error', async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"ping","__proto__":{}}', t.keys.free);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('`__proto__`'), data: { error: 'invalid_request' } },
    });
  });

  it('answers a body that is not application/json with 415 and its code in the JSON-RPC error', async () => {
    const res = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${t.keys.free}` },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({
      error: {
        message: expect.stringContaining('send it as application/json'),
        data: { error: 'unsupported_media_type' },
      },
    });
  });
});
