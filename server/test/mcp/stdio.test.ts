/**
 * `props mcp` as a desktop client runs it: a child process speaking MCP on stdio, calling a
 * real server (port 0) through the SDK. Driven by the MCP SDK's own clients (v1 on 2025-11-25,
 * v2 on 2026-07-28), and by a pipe that closes as soon as it has written.
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { buildMcpApp } from './board';
import { expectSameAsRest, TOOL_CALLS, textOf } from './same-as-rest';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await buildMcpApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

/** Spawns `props mcp` with the key, connects a client, runs the body, then closes both. */
async function withPropsMcp(key: string, body: (client: Client, stderr: () => string) => Promise<void>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'cli/src/main.ts', 'mcp'],
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', PROPS_API_KEY: key, PROPS_BASE_URL: baseUrl },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    await body(client, () => stderr);
  } finally {
    await client.close();
  }
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return { result, text: first?.type === 'text' ? first.text : '' };
}

describe('props mcp (stdio)', () => {
  it('lists the tools and calls each one through the SDK; bad arguments are a clear error', async () => {
    await withPropsMcp(t.keys.pro, async (client, stderr) => {
      expect((await client.listTools()).tools).toHaveLength(12);
      for (const { tool, args, path } of TOOL_CALLS) {
        const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
        expectSameAsRest(tool, result, await t.get(`/api/v1${path}`, t.keys.pro));
      }
      expect((await call(client, 'find_game', { team: 'celtics' })).text).toMatch(/pp_100\s+nba\s+Boston Celtics/);
      const props = await call(client, 'get_game_props', { eventId: 'ud_100', stats: ['points'] });
      expect(props.text).toMatch(/LeBron James\s+points\s+25.5/);
      const bad = await call(client, 'get_game_props', { eventId: 'not-a-game' });
      expect(bad.result.isError).toBe(true);
      expect(bad.text).toMatch(/Invalid arguments for tool get_game_props: .*event id/);
      expect(stderr()).toContain('props mcp: serving the propsfeed tools on stdio');
    });
  });

  it('a free key: pro tools name the tier; over the limit, the error says when to retry', async () => {
    const key = await t.createKey({ tier: 'free' });
    await withPropsMcp(key, async (client) => {
      const history = await call(client, 'get_prop_history', { eventId: 'pp_100', player: 'LeBron', stat: 'points' });
      expect(history.result.isError).toBe(true);
      expect(history.text).toContain('(error: route_not_in_tier)');
      expect(history.text).toContain('needs the pro tier or higher');
      // Use up the rest of the key's minute over REST: /mcp, REST and the SDK share one count.
      let refused = false;
      for (let i = 0; i < 200 && !refused; i++) refused = (await t.get('/api/v1/sports', key)).statusCode === 429;
      expect(refused).toBe(true);
      const limited = await call(client, 'list_sports');
      expect(limited.result.isError).toBe(true);
      expect(limited.text).toMatch(/\(error: rate_limited\) Retry after \d+ seconds\./);
    });
  });
});

const PROPS_MCP = ['--import', 'tsx', 'cli/src/main.ts', 'mcp'];

describe('props mcp (stdio), 2026-07-28: the v2 client', () => {
  it('discovers the current revision, lists and calls the tools, and words a tier refusal as over HTTP', async () => {
    const key = await t.createKey({ tier: 'free' });
    const transport = new ModernStdioTransport({
      command: process.execPath,
      args: PROPS_MCP,
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', PROPS_API_KEY: key, PROPS_BASE_URL: baseUrl },
      stderr: 'pipe',
    });
    const client = new ModernClient(
      { name: 'stdio-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(transport);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect((await client.listTools()).tools).toHaveLength(12);
      const sports = (await client.callTool({ name: 'list_sports', arguments: {} })) as CallToolResult;
      expectSameAsRest('list_sports', sports, await t.get('/api/v1/sports', key));
      const history = await client.callTool({
        name: 'get_prop_history',
        arguments: { eventId: 'pp_100', player: 'LeBron', stat: 'points' },
      });
      expect(history.isError).toBe(true);
      const rest = (await t.get('/api/v1/props/history?eventId=pp_100&player=LeBron&stat=points', key)).json();
      expect(rest.message).toBe('/api/v1/props/history is not included in the free tier');
      expect(textOf(history as CallToolResult)).toContain(`${rest.message} (error: route_not_in_tier)`);
    } finally {
      await client.close();
    }
  });
});

/** Runs `props mcp` with these lines on stdin, closed at once, as `printf ... | props mcp` does; its stdout, parsed. */
function pipeThrough(lines: object[], key: string): Promise<{ out: { id?: unknown }[]; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, PROPS_MCP, {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', PROPS_API_KEY: key, PROPS_BASE_URL: baseUrl },
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const out = stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      resolve({ out, code });
    });
    child.stdin.end(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  });
}

describe('props mcp (stdio) at the end of its input', () => {
  it("answers everything it was asked before it exits: printf '<initialize>\\n<tools/call>\\n' | props mcp", async () => {
    const key = await t.createKey({ tier: 'pro' });
    const { out, code } = await pipeThrough(
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'printf', version: '1' } },
        },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'find_game', arguments: { team: 'lakers' } } },
      ],
      key,
    );
    expect(code).toBe(0);
    expect(out.map((m) => m.id)).toEqual([1, 2]);
    expect(out[0]).toMatchObject({ result: { serverInfo: { name: 'propsfeed' } } });
    expect(out[1]).toMatchObject({ result: { structuredContent: { games: [{ id: 'pp_100' }] } } });
  });

  it('the same on the current revision: server/discover, then a tools/call with its _meta', async () => {
    const key = await t.createKey({ tier: 'pro' });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const { out } = await pipeThrough(
      [
        { jsonrpc: '2.0', id: 'a', method: 'server/discover', params: { _meta: meta } },
        {
          jsonrpc: '2.0',
          id: 'b',
          method: 'tools/call',
          params: { name: 'list_games', arguments: { sport: 'nba' }, _meta: meta },
        },
      ],
      key,
    );
    expect(out.map((m) => m.id)).toEqual(['a', 'b']);
    expect(out[0]).toMatchObject({ result: { supportedVersions: expect.arrayContaining(['2026-07-28']) } });
    expect(out[1]).toMatchObject({ result: { structuredContent: { sport: 'nba', count: 2 } } });
  });
});
