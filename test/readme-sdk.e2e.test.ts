/** The SDK guide's example (docs/sdk.md) is sdk/examples/quickstart.ts, word for word, and it runs against a real server. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../server/test/helpers/app';
import { buildBoard, TestBoardSource } from '../server/test/helpers/board';
import { ALL_GAMES } from '../server/test/helpers/fixtures';

const repo = fileURLToPath(new URL('..', import.meta.url));
const examplePath = 'sdk/examples/quickstart.ts';
let server: TestApp;
let baseUrl = '';

beforeAll(async () => {
  // Fetched 11 minutes ago, so the free tier's 10-minute delayed view already holds it.
  const board = buildBoard(ALL_GAMES, Date.now() - 11 * 60_000);
  server = await buildTestApp({ source: new TestBoardSource(board) });
  baseUrl = (await server.app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
});

afterAll(async () => {
  await server?.close();
});

async function runExample(apiKey: string) {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', examplePath], {
    cwd: repo,
    env: { ...process.env, PROPS_API_KEY: apiKey, PROPS_BASE_URL: baseUrl },
  });
  return stdout;
}

describe('SDK guide example', () => {
  it('is the quickstart file, as written', () => {
    const guide = readFileSync(`${repo}docs/sdk.md`, 'utf8');
    const section = guide.slice(guide.indexOf('## A longer example'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(readFileSync(`${repo}${examplePath}`, 'utf8'));
  });

  it('runs on a free key: games, a scan, and the tier that line history needs', async () => {
    const out = await runExample(server.keys.free);
    expect(out.split('\n')).toEqual([
      'pp_1001 Miami Heat @ Boston Celtics LIVE Q2 5:31',
      'pp_1002 Los Angeles Lakers @ Denver Nuggets 2026-11-22T02:00:00.000Z',
      'ud_1003 Phoenix Suns @ Golden State Warriors 2026-11-22T03:30:00.000Z',
      expect.stringMatching(/ books$/),
      expect.stringMatching(/ books$/),
      'Line history needs the pro tier',
      '',
    ]);
  });
});
