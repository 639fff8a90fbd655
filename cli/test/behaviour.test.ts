/** Colour, sorting, --watch and login, each on its own. */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGames } from '../src/commands/games';
import { runLogin } from '../src/commands/login';
import { runScan, selectRows } from '../src/commands/scan';
import { configPath, readStoredConfig, resolveConnection, writeStoredConfig } from '../src/config';
import { shouldColor } from '../src/output/color';
import { fitWidths } from '../src/output/table';
import * as data from './data';
import { capture, fakeClient, testContext } from './harness';

describe('colour', () => {
  it('marks LIVE and plus-money odds on a colour terminal', async () => {
    const { ctx, stdout } = testContext(fakeClient({ scan: async () => data.scan }), { terminal: true, color: true });
    await runScan(ctx, {});
    expect(stdout.text).toContain('\u001b[1m\u001b[31mLIVE Q3 4:12\u001b[39m\u001b[22m');
    expect(stdout.text).toContain('\u001b[32m+110\u001b[39m');
    expect(stdout.text).not.toContain('\u001b[32m-120');
  });

  it('is off with NO_COLOR, TERM=dumb, or when piped', () => {
    expect(shouldColor(true, {})).toBe(true);
    expect(shouldColor(true, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor(true, { NO_COLOR: '' })).toBe(true);
    expect(shouldColor(true, { TERM: 'dumb' })).toBe(false);
    expect(shouldColor(false, {})).toBe(false);
  });
});

describe('scan --sort and --min-books', () => {
  const names = (rows: { player: string }[]) => rows.map((r) => r.player);
  it('sorts by line (highest first), odds (best price first) and player', () => {
    expect(names(selectRows([...data.scan.rows], { sort: 'line' }))).toEqual([
      'Jayson Tatum',
      'LeBron James',
      'Bam Adebayo',
    ]);
    expect(names(selectRows([...data.scan.rows], { sort: 'odds' }))).toEqual([
      'LeBron James',
      'Jayson Tatum',
      'Bam Adebayo',
    ]);
    expect(names(selectRows([...data.scan.rows], { sort: 'player' }))).toEqual([
      'Bam Adebayo',
      'Jayson Tatum',
      'LeBron James',
    ]);
  });

  it('keeps props posted by at least N books, and says how many of the total it shows', async () => {
    expect(names(selectRows([...data.scan.rows], { minBooks: 2 }))).toEqual(['LeBron James', 'Jayson Tatum']);
    const { ctx, stdout } = testContext(fakeClient({ scan: async () => data.scan }), { terminal: true });
    await runScan(ctx, { minBooks: 2 });
    expect(stdout.text).toContain('Showing 2 of 412 props');
    expect(stdout.text).not.toContain('Bam Adebayo');
  });
});

describe('table width', () => {
  it('squeezes flexible columns first, then any column', () => {
    const columns = [{ header: 'a', min: 5 }, { header: 'b' }];
    expect(fitWidths(columns, [20, 10], 100)).toEqual([20, 10]);
    expect(fitWidths(columns, [20, 10], 22)).toEqual([10, 10]);
    expect(fitWidths(columns, [20, 10], 14)).toEqual([5, 7]);
  });

  it('leaves optional columns out of a narrow terminal', async () => {
    const { ctx, stdout } = testContext(fakeClient({ scan: async () => data.scan }), { terminal: true, columns: 50 });
    await runScan(ctx, {});
    const header = stdout.text.split('\n')[0];
    expect(header).toBe('PLAYER      STAT    LINE  OVER  UNDER  START');
    for (const line of stdout.text.split('\n')) expect(line.length).toBeLessThanOrEqual(50);
  });
});

describe('--watch', () => {
  it('redraws in place on a terminal, with the refresh interval', async () => {
    let calls = 0;
    const client = fakeClient({
      games: async () => {
        calls++;
        return data.games;
      },
    });
    const { ctx, stdout } = testContext(client, { terminal: true, frames: 3 });
    await runGames(ctx, { watch: 5 });
    expect(calls).toBe(3);
    expect(stdout.text.split('\u001b[H\u001b[2J\u001b[3J')).toHaveLength(4);
    expect(stdout.text).toContain('Every 5s · updated 00:00:00 · Ctrl-C to stop');
  });

  it('appends frames without escape codes when piped, and survives a failed refresh', async () => {
    let calls = 0;
    const { RateLimitError } = await import('@propsfeed/sdk');
    const client = fakeClient({
      games: async () => {
        calls++;
        if (calls === 1) throw new RateLimitError({ status: 429, code: 'rate_limited', message: 'x', retryAfter: 3 });
        return data.games;
      },
    });
    const { ctx, stdout } = testContext(client, { terminal: false, frames: 2 });
    await runGames(ctx, { watch: true });
    expect(stdout.text).not.toContain('\u001b[');
    expect(stdout.text.startsWith('Rate limit reached. Try again in 3s.\npp_8812345\t')).toBe(true);
  });
});

describe('config and login', () => {
  let home = '';
  const env = () => ({ XDG_CONFIG_HOME: home });
  afterEach(() => {
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('stores key and base URL readable by the owner only', async () => {
    home = mkdtempSync(join(tmpdir(), 'props-config-'));
    const path = await writeStoredConfig({ apiKey: 'pf_x', baseUrl: 'http://h:1' }, env());
    expect(path).toBe(join(home, 'propsfeed', 'config.json'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, 'propsfeed')).mode & 0o777).toBe(0o700);
    expect(await readStoredConfig(env())).toEqual({ apiKey: 'pf_x', baseUrl: 'http://h:1' });
  });

  it('takes flags over PROPS_* over the config file', async () => {
    home = mkdtempSync(join(tmpdir(), 'props-config-'));
    await writeStoredConfig({ apiKey: 'pf_file', baseUrl: 'http://file:1' }, env());
    expect(await resolveConnection({}, env())).toEqual({
      apiKey: 'pf_file',
      baseUrl: 'http://file:1',
      keySource: 'config',
      baseUrlSource: 'config',
    });
    const withEnv = { ...env(), PROPS_API_KEY: 'pf_env', PROPS_BASE_URL: 'http://env:2/' };
    expect(await resolveConnection({}, withEnv)).toEqual({
      apiKey: 'pf_env',
      baseUrl: 'http://env:2',
      keySource: 'env',
      baseUrlSource: 'env',
    });
    expect(await resolveConnection({ apiKey: 'pf_flag', baseUrl: 'http://flag:3' }, withEnv)).toEqual({
      apiKey: 'pf_flag',
      baseUrl: 'http://flag:3',
      keySource: 'flag',
      baseUrlSource: 'flag',
    });
    expect(await resolveConnection({}, { XDG_CONFIG_HOME: join(home, 'none') })).toEqual({
      baseUrl: 'http://127.0.0.1:8787',
      keySource: 'none',
      baseUrlSource: 'default',
    });
  });

  it('login checks the key, then saves it', async () => {
    home = mkdtempSync(join(tmpdir(), 'props-config-'));
    const key = `pf_${'A1'.repeat(16)}`;
    const { ctx, stderr } = testContext(fakeClient({}), { terminal: true });
    const checked: string[] = [];
    await runLogin(
      {
        out: ctx.out,
        json: false,
        key: async () => `${key}\n`,
        baseUrl: 'http://127.0.0.1:9999',
        verify: async (apiKey, baseUrl) => {
          checked.push(apiKey, baseUrl);
          return data.me;
        },
        save: (config) => writeStoredConfig(config, env()),
      },
      { verify: true },
    );
    expect(checked).toEqual([key, 'http://127.0.0.1:9999']);
    expect(JSON.parse(readFileSync(configPath(env()), 'utf8'))).toEqual({
      apiKey: key,
      baseUrl: 'http://127.0.0.1:9999',
    });
    expect(stderr.text).toBe(
      `Logged in to http://127.0.0.1:9999 with a pro key (pf_a1B2c…, "my laptop"). Saved to ${configPath(env())}.\n`,
    );
  });

  it('login refuses something that is not a key, saving nothing', async () => {
    const { ctx } = testContext(fakeClient({}), { terminal: true });
    let saved = false;
    const login = runLogin(
      {
        out: ctx.out,
        json: false,
        key: async () => 'hello',
        baseUrl: 'http://x',
        verify: async () => data.me,
        save: async () => {
          saved = true;
          return '';
        },
      },
      { verify: true },
    );
    await expect(login).rejects.toMatchObject({ exitCode: 2 });
    expect(saved).toBe(false);
  });
});

describe('capture helper', () => {
  it('records writes', () => {
    const s = capture(false);
    s.write('a');
    s.write('b');
    expect(s.text).toBe('ab');
  });
});
