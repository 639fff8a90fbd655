/**
 * `props mcp` as a desktop client runs it: a child process speaking MCP on stdio, calling a
 * real server (port 0) through the SDK. Driven by the MCP SDK's own client.
 */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app';
import { buildMcpApp } from './board';
import { expectSameAsRest, TOOL_CALLS } from './same-as-rest';

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
