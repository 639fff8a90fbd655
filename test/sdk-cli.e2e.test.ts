/**
 * The SDK and the `props` CLI against a real server on 127.0.0.1, port 0: the route code,
 * key guard and tiers the users hit, over real HTTP.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  AuthenticationError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  PropsFeed,
} from '@propsfeed/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../server/test/helpers/app';
import { buildBoard, TestBoardSource } from '../server/test/helpers/board';
import { ALL_GAMES } from '../server/test/helpers/fixtures';

const repo = fileURLToPath(new URL('..', import.meta.url));
let server: TestApp;
let baseUrl = '';
let configHome = '';

beforeAll(async () => {
  server = await buildTestApp({ source: new TestBoardSource(buildBoard(ALL_GAMES)) });
  baseUrl = (await server.app.listen({ port: 0, host: '127.0.0.1' })).replace(/\/$/, '');
  configHome = mkdtempSync(join(tmpdir(), 'props-e2e-config-'));
});

afterAll(async () => {
  await server?.close();
  if (configHome) rmSync(configHome, { recursive: true, force: true });
});

describe('SDK against a real server', () => {
  it('reads games, a game, a scan and the key', async () => {
    const client = new PropsFeed({ apiKey: server.keys.sharp, baseUrl });
    const games = await client.games({ sport: 'nba' });
    expect(games.games.map((g) => g.id)).toEqual(['pp_1001', 'pp_1002', 'ud_1003']);
    const game = await client.gameProps('ud_9002', { stats: ['pra'] });
    expect(game.eventId).toBe('pp_1002');
    expect(game.props.map((p) => [p.player, p.stat, p.line])).toEqual([['Nikola Jokic', 'pra', 48.5]]);
    const scan = await client.scan({ stat: 'points', limit: 2 });
    expect(scan.rows).toHaveLength(2);
    expect(scan.rows.every((r) => r.stat === 'points')).toBe(true);
    const me = await client.me();
    expect(me.tier).toBe('sharp');
    expect(me.usage.today).toBeGreaterThanOrEqual(3);
  });

  it('throws the error class of each refusal', async () => {
    const pro = new PropsFeed({ apiKey: server.keys.pro, baseUrl, maxRetries: 0 });
    await expect(pro.games({ sport: 'nfl' })).rejects.toMatchObject({
      constructor: PermissionError,
      status: 403,
      code: 'sport_not_in_tier',
      requiredTier: 'sharp',
    });
    await expect(pro.gameProps('pp_424242')).rejects.toBeInstanceOf(NotFoundError);
    await expect(pro.scan({ limit: 0 })).rejects.toBeInstanceOf(InvalidRequestError);
    const stranger = new PropsFeed({ apiKey: `pf_${'x'.repeat(32)}`, baseUrl, maxRetries: 0 });
    await expect(stranger.me()).rejects.toMatchObject({
      constructor: AuthenticationError,
      code: 'invalid_api_key',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('keeps the raw ts-rest client on the same key and address', async () => {
    const raw = await new PropsFeed({ apiKey: server.keys.pro, baseUrl }).raw.sports();
    expect(raw.status).toBe(200);
    if (raw.status === 200) expect(raw.body.sports.find((s) => s.id === 'mlb')?.enabled).toBe(true);
  });

  it('names the address when nothing listens there', async () => {
    const closed = new PropsFeed({ apiKey: server.keys.pro, baseUrl: 'http://127.0.0.1:9', maxRetries: 0 });
    await expect(closed.sports()).rejects.toMatchObject({
      constructor: ConnectionError,
      url: 'http://127.0.0.1:9/api/v1/sports',
    });
  });
});

const run = promisify(execFile);

/** Runs `props` as a user would (piped, so no colour or spinner), answering stdout, stderr and the exit code. */
async function props(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'cli/src/main.ts', ...args], {
      cwd: repo,
      env: { ...process.env, XDG_CONFIG_HOME: configHome, PROPS_BASE_URL: baseUrl, PROPS_API_KEY: '', ...env },
    });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

describe('props CLI against a real server', () => {
  it('prints games as tab-separated rows when piped', async () => {
    const result = await props(['games'], { PROPS_API_KEY: server.keys.sharp });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.map((l) => l.split('\t')[0])).toEqual(['pp_1001', 'pp_1002', 'ud_1003']);
    expect(lines[0]?.split('\t').slice(1, 5)).toEqual([
      'Miami Heat',
      'Boston Celtics',
      '2026-11-22T00:00:00.000Z',
      'true',
    ]);
  });

  it('prints the API JSON exactly with --json', async () => {
    const result = await props(['scan', '--stat', 'points', '--limit', '20', '--json'], {
      PROPS_API_KEY: server.keys.sharp,
    });
    expect(result.code).toBe(0);
    const direct = await new PropsFeed({ apiKey: server.keys.sharp, baseUrl }).scan({ stat: 'points', limit: 20 });
    expect(JSON.parse(result.stdout)).toEqual(direct);
  });

  it('logs in, then uses the stored key', async () => {
    const login = await props(['login', '--api-key', server.keys.pro]);
    expect(login.code).toBe(0);
    expect(login.stderr).toContain(`Logged in to ${baseUrl} with a pro key`);
    const me = await props(['me']);
    expect(me.code).toBe(0);
    expect(me.stdout).toContain('tier\tpro\n');
  });

  it('exits 4 on a rejected key, 1 on a tier refusal and with no server, 2 on usage', async () => {
    const [bad, tier, down, usage] = await Promise.all([
      props(['games', '--api-key', `pf_${'y'.repeat(32)}`]),
      props(['movement', '--api-key', server.keys.free]),
      props(['games', '--base-url', 'http://127.0.0.1:9', '--api-key', server.keys.pro]),
      props(['scan', '--limit', 'lots']),
    ]);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(
      /^Your API key was rejected \(it came from the --api-key flag\)\. Pass a valid key to --api-key, or drop the flag to use the key `props login` stored\.\nRequest id: [0-9a-f-]{36}\n$/,
    );
    expect(tier.code).toBe(1);
    expect(tier.stderr).toMatch(
      /^line movement is not included in the free tier\. It is available on the pro tier and above\./,
    );
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('Could not reach the propsfeed API at http://127.0.0.1:9/api/v1/games');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("error: option '-l, --limit <n>' argument 'lots' is invalid");
  });

  it('a wrong PROPS_API_KEY is named as the thing to fix, since it wins over the key `props login` stored', async () => {
    const home = join(configHome, 'env-wins');
    expect((await props(['login', '--api-key', server.keys.pro], { XDG_CONFIG_HOME: home })).code).toBe(0);
    const wrong = { XDG_CONFIG_HOME: home, PROPS_API_KEY: `pf_${'w'.repeat(32)}` };
    const [games, doctor] = await Promise.all([props(['games'], wrong), props(['doctor'], wrong)]);
    expect(games.code).toBe(4);
    expect(games.stderr.split('\n')[0]).toBe(
      'Your API key was rejected (it came from PROPS_API_KEY). PROPS_API_KEY wins over the key `props login` stores: set it to a valid key, or `unset PROPS_API_KEY` (then `props login` if no key is stored).',
    );
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      'fail  key accepted    the server refused the key from the environment: PROPS_API_KEY wins over the key `props login` stores: set it to a valid key, or `unset PROPS_API_KEY`',
    );
    // With the variable gone, the stored key works, as the advice says.
    expect((await props(['games'], { XDG_CONFIG_HOME: home })).code).toBe(0);
  });
});

describe('props doctor', () => {
  it('says where the server and key came from, that both work, and the clock offset', async () => {
    const result = await props(['doctor'], { PROPS_API_KEY: server.keys.pro });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      `ok    server          ${baseUrl} (from the environment)`,
      `ok    key             ${server.keys.pro.slice(0, 8)}… (from the environment)`,
      expect.stringMatching(/^ok {4}server answers {2}\/healthz in \d+ ms$/),
      'ok    clock           within a second of the server',
      expect.stringMatching(/^ok {4}key accepted {4}pro tier, \d+ of 20000 requests used today$/),
      '',
    ]);
  });

  it('fails the line that fails, with what to do, and exits 1', async () => {
    const [badKey, noServer] = await Promise.all([
      props(['doctor', '--api-key', `pf_${'z'.repeat(32)}`]),
      // No key anywhere (an earlier test logs in): a config folder with nothing in it.
      props(['doctor', '--base-url', 'http://127.0.0.1:9'], { XDG_CONFIG_HOME: join(configHome, 'empty') }),
    ]);
    expect(badKey.code).toBe(1);
    expect(badKey.stdout).toMatch(
      /\nfail {2}key accepted {4}the server refused the key from the command line: pass a valid key to --api-key, or drop the flag to use the key `props login` stored \(request id [0-9a-f-]{36}\)\n$/,
    );
    expect(noServer.code).toBe(1);
    expect(noServer.stdout).toContain('fail  key             none: run `props login`');
    expect(noServer.stdout).toContain(
      'fail  server answers  no answer from http://127.0.0.1:9 (ECONNREFUSED): start one with `props serve`',
    );
    expect(noServer.stdout).not.toContain('key accepted');
  });
});

describe('props keys on the server store', () => {
  it('creates, lists and revokes a key in PROPS_DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'props-e2e-keys-'));
    try {
      const env = { PROPS_DATA_DIR: dataDir, PROPS_DATABASE_URL: '' };
      const args = ['--tier', 'enterprise', '--label', 'bench', '--rpm', '100000', '--rpd', '1000000'];
      // A new store only with --init; every command names the store it opened.
      const store = `Store: SQLite ${join(dataDir, 'propsfeed.db')}\n`;
      expect((await props(['keys', 'create', ...args], env)).code).toBe(1);
      const created = await props(['keys', 'create', ...args, '--scan-limit', '5000', '--init'], env);
      expect(created.stderr).toBe(store);
      expect(created.code).toBe(0);
      const key = created.stdout.trim();
      expect(key).toMatch(/^pf_[0-9A-Za-z]{32}$/);
      const listed = await props(['keys', 'list', '--json'], env);
      const rows = JSON.parse(listed.stdout) as { keyPrefix: string; label: string; limits: { scanLimit: number } }[];
      expect(rows.find((r) => r.label === 'bench')).toMatchObject({
        keyPrefix: key.slice(0, 8),
        limits: { scanLimit: 5000 },
      });
      const [revoked, wrongTier, proWithRpm] = await Promise.all([
        props(['keys', 'revoke', key.slice(0, 8)], env),
        props(['keys', 'create', '--tier', 'gold', '--label', 'x'], env),
        props(['keys', 'create', '--tier', 'pro', '--label', 'x', '--rpm', '5'], env),
      ]);
      expect(revoked).toMatchObject({
        code: 0,
        stderr: `${store}Revoked ${key.slice(0, 8)}. Servers refuse it within a second.\n`,
      });
      expect(wrongTier.code).toBe(2);
      expect(proWithRpm).toMatchObject({ code: 2, stderr: `${store}--rpm: can be set only on enterprise keys\n` });
      const again = await props(['keys', 'revoke', key.slice(0, 8)], env);
      expect(again.code).toBe(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
