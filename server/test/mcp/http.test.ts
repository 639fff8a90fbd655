/**
 * POST /mcp on the real app (port 0), with the MCP SDK's own clients over Streamable HTTP: the
 * v1 client on 2025-11-25 (initialize), the v2 client on 2026-07-28 (stateless), and raw
 * requests for the revision's rules. Same keys, tiers and rate limits as the REST routes.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { buildMcpApp } from './board';
import { expectSameAsRest, TOOL_CALLS, textOf } from './same-as-rest';

let t: TestApp;
let base: URL;
const clients: { close(): Promise<void> }[] = [];

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

describe('POST /mcp, 2025-11-25: the v1 SDK client', () => {
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

/** The v2 client pinned to the current revision: server/discover, then one POST per request. */
async function connectModern(key: string | undefined): Promise<ModernClient> {
  const transport = new ModernTransport(base, {
    requestInit: { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } },
  });
  const client = new ModernClient(
    { name: 'http-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  clients.push(client);
  return client;
}

describe('POST /mcp, 2026-07-28: the v2 SDK client', () => {
  it('connects on the current revision, lists the tools and calls each: the same answer as the REST route', async () => {
    const client = await connectModern(t.keys.pro);
    expect(client.getProtocolEra()).toBe('modern');
    expect((await client.listTools()).tools).toHaveLength(12);
    for (const { tool, args, path } of TOOL_CALLS) {
      const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      expectSameAsRest(tool, result, await t.get(`/api/v1${path}`, t.keys.pro));
    }
  });

  it('words a tier refusal as the REST route and `props mcp` do: the route path and the tier', async () => {
    const client = await connectModern(t.keys.free);
    const result = (await client.callTool({ name: 'scan_movers', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    const rest = (await t.get('/api/v1/props/movement', t.keys.free)).json();
    expect(textOf(result)).toContain(`${rest.message} (error: route_not_in_tier)`);
    expect(rest.message).toBe('/api/v1/props/movement is not included in the free tier');
  });

  it("a bad key: the 401 carries WWW-Authenticate Bearer, and the client's error is the server's sentence", async () => {
    const bad = `pf_${'x'.repeat(32)}`;
    const res = await post(JSON.stringify(scanProps(1)), bad);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer realm="propsfeed", error="invalid_token", error_description="key is invalid, revoked or inactive"',
    );
    const client = await connectModern(bad);
    const err = await client.callTool({ name: 'list_sports', arguments: {} }).catch((e: Error) => e);
    expect((err as Error).message).toContain('key is invalid, revoked or inactive');
    const none = await connectModern(undefined);
    const missing = await none.listTools().catch((e: Error) => e);
    expect((missing as Error).message).toContain('send your API key as Authorization: Bearer <key>');
  });
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'curl', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface WireOptions {
  key?: string;
  id?: number | string;
  /** Headers over the ones the revision requires (or `undefined` to leave one out). */
  headers?: Record<string, string | undefined>;
  meta?: Record<string, unknown> | null;
}

/** One 2026-07-28 request as the revision writes it: its headers mirror the body. */
async function wire(method: string, params: Record<string, unknown> = {}, opts: WireOptions = {}) {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
    ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
    ...opts.headers,
  };
  const meta = opts.meta === null ? {} : { _meta: opts.meta ?? META };
  const res = await fetch(base, {
    method: 'POST',
    headers: Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined)),
    body: JSON.stringify({ jsonrpc: '2.0', id: opts.id ?? 1, method, params: { ...params, ...meta } }),
  });
  const text = await res.text();
  return { res, text, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

describe('POST /mcp, 2026-07-28 on the wire', () => {
  it('server/discover: versions, capabilities and server info; answered without a valid key too, uncounted', async () => {
    const key = await t.createKey({ tier: 'free' });
    const { res, body } = await wire('server/discover', {}, { id: 'd-1' });
    expect(res.status).toBe(200);
    expect(body.id).toBe('d-1');
    expect(body.result).toMatchObject({
      resultType: 'complete',
      supportedVersions: expect.arrayContaining(['2026-07-28']),
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false },
        prompts: { listChanged: false },
        completions: {},
      },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'propsfeed', version: '0.1.0' } },
      ttlMs: 600_000,
      cacheScope: 'public',
    });
    expect(body.result.instructions).toContain('propsfeed://entries');
    const badKey = await wire('server/discover', {}, { key: `pf_${'x'.repeat(32)}` });
    expect(badKey.res.status).toBe(200);
    // A valid key's discover counts, as any message does.
    await wire('server/discover', {}, { key });
    expect((await t.get('/api/v1/me', key)).json().usage.today).toBe(2);
  });

  it('answers a request with its revision on one POST, counted once, with cache hints on the lists', async () => {
    const key = await t.createKey({ tier: 'free' });
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      const { res, body } = await wire(method, {}, { key, id: method });
      expect(res.status, method).toBe(200);
      expect(body, method).toMatchObject({ id: method, result: { ttlMs: 600_000, cacheScope: 'public' } });
    }
    const call = await wire('tools/call', { name: 'list_sports', arguments: {} }, { key, id: 9 });
    expect(call.body).toMatchObject({
      id: 9,
      result: { resultType: 'complete', structuredContent: { sports: expect.any(Array) } },
    });
    expect((await t.get('/api/v1/me', key)).json().usage.today).toBe(6);
  });

  it('a missing or malformed _meta envelope is 400 with -32602, echoing the id', async () => {
    for (const meta of [null, { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }]) {
      const { res, body } = await wire('tools/list', {}, { key: t.keys.free, id: 41, meta });
      expect(res.status).toBe(400);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 41, error: { code: -32602 } });
    }
  });

  it('Mcp-Method or Mcp-Name not matching the body (or missing) is 400 with -32020, echoing the id', async () => {
    const cases: Record<string, string | undefined>[] = [
      { 'mcp-method': 'tools/list' },
      { 'mcp-name': 'list_games' },
      { 'mcp-name': undefined },
      { 'mcp-method': 'TOOLS/CALL' },
    ];
    for (const headers of cases) {
      const { res, body } = await wire(
        'tools/call',
        { name: 'list_sports', arguments: {} },
        { key: t.keys.free, id: 'h', headers },
      );
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect(body, JSON.stringify(headers)).toMatchObject({ id: 'h', error: { code: -32020 } });
    }
    const spaced = await wire('tools/list', {}, { key: t.keys.free, headers: { 'mcp-method': '  tools/list ' } });
    expect(spaced.res.status).toBe(200);
  });

  it('the methods the revision removed, and unknown ones, are 404 with -32601, echoing the id', async () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'no/such-method']) {
      const { res, body } = await wire(method, {}, { key: t.keys.free, id: method });
      expect(res.status, method).toBe(404);
      expect(body, method).toMatchObject({ id: method, error: { code: -32601 } });
    }
  });

  it('an unsupported revision is 400 naming the ones served, echoing the id', async () => {
    const { res, body } = await wire(
      'tools/list',
      {},
      {
        key: t.keys.free,
        id: 77,
        headers: { 'mcp-protocol-version': '2099-01-01' },
        meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
      },
    );
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ id: 77, error: { data: { supported: ['2026-07-28'], requested: '2099-01-01' } } });
  });

  it('subscriptions/listen is acknowledged with no notification types (nothing here changes) and ends', async () => {
    const { res, text } = await wire(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true, resourcesListChanged: true } },
      { key: t.keys.free, id: 'l' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1] ?? 'null'));
    expect(events[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: {} },
    });
    expect(events.at(-1)).toMatchObject({ id: 'l', result: { resultType: 'complete' } });
  });
});

/** A POST /mcp over a plain socket to loopback, with whatever Host and Origin it is given, as a browser sends them. */
// biome-ignore lint/suspicious/noExplicitAny: each test reads the fields it expects
function postAs(host: string, origin: string | undefined, key: string): Promise<{ status: number; body: any }> {
  const body = JSON.stringify(scanProps(5));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(base.port),
        path: '/mcp',
        method: 'POST',
        setHost: false,
        headers: {
          host,
          ...(origin === undefined ? {} : { origin }),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${key}`,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        // A refusal is JSON; a 2025-11-25 answer is an SSE event.
        const json = res.headers['content-type']?.includes('json');
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: json ? JSON.parse(text) : text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('POST /mcp refuses a Host or Origin that is neither loopback nor allowed (DNS rebinding)', () => {
  it('a page on evil.example.com re-pointed at 127.0.0.1: 403 with a sentence, before the key is even counted', async () => {
    const key = await t.createKey({ tier: 'free' });
    const port = base.port;
    for (const origin of [`http://evil.example.com:${port}`, undefined]) {
      const res = await postAs(`evil.example.com:${port}`, origin, key);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: 5,
        error: { code: -32000, data: { error: 'host_not_allowed' } },
      });
      expect(res.body.error.message).toContain(`Host "evil.example.com:${port}" is not allowed`);
      expect(res.body.error.message).toContain('PROPS_ALLOWED_HOSTS');
    }
    expect((await t.get('/api/v1/me', key)).json().usage.today).toBe(1);
  });

  it('a loopback Host with a foreign Origin is refused too; loopback names and origins pass', async () => {
    const port = base.port;
    const key = await t.createKey({ tier: 'enterprise', rpm: 100, rpd: 1000 });
    const foreign = await postAs(`127.0.0.1:${port}`, 'https://evil.example.com', key);
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.message).toContain('Origin "https://evil.example.com" is not allowed');
    for (const [host, origin] of [
      [`127.0.0.1:${port}`, undefined],
      [`localhost:${port}`, `http://localhost:${port}`],
      [`[::1]:${port}`, 'http://127.0.0.1:5173'],
      ['LOCALHOST', 'http://[::1]:3000'],
    ] as const) {
      expect((await postAs(host, origin, key)).status, `${host} ${origin}`).toBe(200);
    }
  });

  it('the REST routes are not guarded: bearer keys and CORS already decide who reads them', async () => {
    const key = await t.createKey({ tier: 'free' });
    const res = await t.get('/api/v1/sports', key, { host: 'evil.example.com', origin: 'http://evil.example.com' });
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /mcp with PROPS_ALLOWED_HOSTS, PROPS_ALLOWED_ORIGINS and a PROPS_CORS_ORIGINS list', () => {
  let allowed: TestApp;
  beforeAll(async () => {
    allowed = await buildTestApp({
      allowedHosts: ['mcp.example.com'],
      allowedOrigins: ['https://agent.example'],
      corsOrigins: ['https://app.example'],
    });
  });
  afterAll(async () => {
    await allowed.close();
  });

  it('answers the names and pages the operator allows, and refuses others', async () => {
    const send = (host: string, origin?: string) =>
      allowed.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          host,
          ...(origin ? { origin } : {}),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${allowed.keys.free}`,
        },
        payload: scanProps(3),
      });
    const cases: [string, string | undefined, number][] = [
      ['mcp.example.com', undefined, 200],
      ['mcp.example.com:443', 'https://mcp.example.com', 200],
      ['mcp.example.com', 'https://agent.example', 200],
      ['mcp.example.com', 'https://app.example', 200],
      ['localhost', undefined, 200],
      ['mcp.example.com', 'https://agent.example:8443', 403],
      ['mcp.example.com', 'null', 403],
      ['other.example.com', undefined, 403],
      ['mcp.example.com.evil.net', undefined, 403],
    ];
    for (const [host, origin, status] of cases) {
      expect((await send(host, origin)).statusCode, `${host} ${origin}`).toBe(status);
    }
  });
});
