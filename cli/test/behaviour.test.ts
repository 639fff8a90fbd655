/** Colour, sorting, --watch and login, each on its own. */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScanRow, type StreamGame, shapeScanRows } from '@propsfeed/contract';
import type { StreamMessage } from '@propsfeed/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { runGameProps } from '../src/commands/gameProps';
import { runGames } from '../src/commands/games';
import { runLogin } from '../src/commands/login';
import { runScan } from '../src/commands/scan';
import { configPath, readStoredConfig, resolveConnection, type StoredConfig, writeStoredConfig } from '../src/config';
import { shouldColor } from '../src/output/color';
import { cell, fitColumns } from '../src/output/table';
import { wrapLines } from '../src/output/wrap';
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

  it('keeps colour codes out of a heading, which is escaped as a whole', async () => {
    const { ctx, stdout } = testContext(fakeClient({ gameProps: async () => data.gameProps }), {
      terminal: true,
      color: true,
    });
    await runGameProps(ctx, 'pp_8812345', {});
    expect(stdout.text.split('\n')[0]).toBe(
      '\u001b[1mLos Angeles Lakers @ Denver Nuggets · LIVE Q3 4:12 · prizepicks, underdog\u001b[22m',
    );
    expect(stdout.text).not.toContain('\\x1b');
  });

  it('is off with NO_COLOR, TERM=dumb, or when piped', () => {
    expect(shouldColor(true, {})).toBe(true);
    expect(shouldColor(true, { NO_COLOR: '1' })).toBe(false);
    expect(shouldColor(true, { NO_COLOR: '' })).toBe(true);
    expect(shouldColor(true, { TERM: 'dumb' })).toBe(false);
    expect(shouldColor(false, {})).toBe(false);
  });
});

describe('scan shapes (shared with the server; the CLI applies them itself only to a --watch board)', () => {
  const names = (rows: { player: string }[]) => rows.map((r) => r.player);
  it('sorts by line (highest first), odds (best price first), books and player', () => {
    expect(names(shapeScanRows(data.scan.rows, { sort: 'line' }))).toEqual([
      'Jayson Tatum',
      'LeBron James',
      'Bam Adebayo',
    ]);
    expect(names(shapeScanRows(data.scan.rows, { sort: 'odds' }))).toEqual([
      'LeBron James',
      'Jayson Tatum',
      'Bam Adebayo',
    ]);
    expect(names(shapeScanRows(data.scan.rows, { sort: 'player' }))).toEqual([
      'Bam Adebayo',
      'Jayson Tatum',
      'LeBron James',
    ]);
    expect(names(shapeScanRows([...data.scan.rows].reverse(), { sort: 'books' }))).toEqual([
      'Jayson Tatum',
      'LeBron James',
      'Bam Adebayo',
    ]);
  });

  it('keeps props posted by at least N books', () => {
    expect(names(shapeScanRows(data.scan.rows, { minBooks: 2 }))).toEqual(['LeBron James', 'Jayson Tatum']);
  });
});

describe('wrap', () => {
  it('breaks between words, keeps the spaces it does not break at, and indents what it continues', () => {
    expect(wrapLines('00:00  Aaron Wilson  points  20.5 → 21.5', 24, '       ')).toEqual([
      '00:00  Aaron Wilson',
      '       points  20.5 →',
      '       21.5',
    ]);
    expect(wrapLines('one\ntwo three', 5)).toEqual(['one', 'two', 'three']);
  });

  it('breaks a word only when it is wider than the whole line', () => {
    expect(wrapLines('a https://hooks.example.com b', 10)).toEqual(['a', 'https://ho', 'oks.exampl', 'e.com b']);
  });

  it('closes a colour at the end of a line and opens it again on the next', () => {
    const dim = (t: string) => `\u001b[2m${t}\u001b[22m`;
    expect(wrapLines(`${dim('one two three')} four`, 10)).toEqual([
      '\u001b[2mone two\u001b[0m',
      '\u001b[2mthree\u001b[22m four',
    ]);
  });
});

describe('table width', () => {
  it('leaves out columns in the stated order, then narrows flexible ones to their longest word, then below', () => {
    const columns = [{ header: 'a', min: 3 }, { header: 'b' }, { header: 'c' }];
    const rows = [[cell('abcdefgh ijklmnopqrst'), cell('0123456789'), cell('xxxxx')]];
    expect(fitColumns(columns, rows, 100, ['c', 'b'])).toEqual([21, 10, 5]);
    // Too narrow for all three: c goes first (as stated), and a keeps its natural width.
    expect(fitColumns(columns, rows, 33, ['c', 'b'])).toEqual([21, 10, null]);
    // Then b, and c, narrower, comes back; a column not named (a) always stays and wraps between words.
    expect(fitColumns(columns, rows, 30, ['c', 'b'])).toEqual([21, null, 5]);
    expect(fitColumns(columns, rows, 25, ['c', 'b'])).toEqual([21, null, null]);
    expect(fitColumns(columns, rows, 15, ['c', 'b'])).toEqual([15, null, null]);
    expect(fitColumns(columns, rows, 12, ['c', 'b'])).toEqual([12, null, null]);
    // Below its longest word only when nothing else fits, down to its min.
    expect(fitColumns(columns, rows, 2, ['c', 'b'])).toEqual([3, null, null]);
  });

  it('leaves columns out of a narrow terminal, and wraps the names between words', async () => {
    const { ctx, stdout } = testContext(fakeClient({ scan: async () => data.scan }), { terminal: true, columns: 50 });
    await runScan(ctx, {});
    const [, , header, first, second] = stdout.text.split('\n');
    expect(header).toBe('PLAYER    STAT    LINE  OVER  UNDER  START');
    expect(first).toBe('LeBron    points  25.5  +110   -135  LIVE Q3 4:12');
    expect(second).toBe('James');
    for (const line of stdout.text.split('\n')) expect(line.length).toBeLessThanOrEqual(50);
  });
});

describe('--watch', () => {
  const streamGames = data.games.games;
  const snapshot: StreamMessage = {
    type: 'snapshot',
    reset: false,
    boardVersion: 1,
    fetchedAt: null,
    delayed: false,
    games: streamGames.slice(1),
    rows: data.scan.rows,
    id: '1',
  };
  const [first, second] = data.scan.rows as [ScanRow, ScanRow];
  const changes: StreamMessage[] = [
    { type: 'game', game: streamGames[0] as StreamGame, id: '2.1' },
    { type: 'prop', row: { ...first, line: 26.5 }, previous: { line: 25.5 }, id: '2.2' },
    {
      type: 'prop.removed',
      eventId: second.eventId,
      sport: 'nba',
      player: second.player,
      stat: second.stat,
      id: '2.3',
    },
  ];

  it('draws games from the stream, in place on a terminal, without polling the API', async () => {
    const { ctx, stdout } = testContext(fakeClient({}), { terminal: true, events: [snapshot, ...changes] });
    await runGames(ctx, { watch: true });
    const frames = stdout.text.split('\u001b[H\u001b[2J\u001b[3J').slice(1);
    expect(frames.length).toBeGreaterThanOrEqual(1);
    const last = frames.at(-1) ?? '';
    // The game event added the live game to the snapshot's two.
    expect(last).toContain('pp_8812345');
    expect(last).toContain('ud_112240');
    expect(last).toContain('Live · updated 00:00:00 · Ctrl-C to stop');
  });

  it('leaves a finished game’s rows out of the scan, as the API does, and lists the game last', async () => {
    const [first] = data.scan.rows as [ScanRow];
    const finalGame = data.games.games.find((g) => g.id === 'ud_112201') as StreamGame;
    const finalRow: ScanRow = { ...first, eventId: finalGame.id, player: 'Zach LaVine', gameState: 'final' };
    const events: StreamMessage[] = [
      { ...snapshot, games: [finalGame, ...streamGames.slice(0, 3)], rows: [finalRow, ...data.scan.rows], id: '1' },
    ];
    const scan = testContext(fakeClient({}), { terminal: false, events });
    await runScan(scan.ctx, { watch: true });
    expect(scan.stdout.text).toContain('LeBron James\t');
    expect(scan.stdout.text).not.toContain('Zach LaVine');
    const games = testContext(fakeClient({}), { terminal: false, events });
    await runGames(games.ctx, { watch: true });
    expect(
      games.stdout.text
        .trimEnd()
        .split('\n')
        .map((l) =>
          l
            .split('\t')
            .slice(0, 1)
            .concat(l.split('\t')[5] ?? ''),
        ),
    ).toEqual([
      ['pp_8812345', 'live'],
      ['ud_112240', 'pre'],
      ['pp_8812399', 'pre'],
      ['ud_112201', 'final'],
    ]);
  });

  it('applies prop changes and removals to the scan, piped without escape codes', async () => {
    const { ctx, stdout } = testContext(fakeClient({}), { terminal: false, events: [snapshot, ...changes] });
    await runScan(ctx, { watch: true, stat: 'points' });
    expect(stdout.text).not.toContain('\u001b[');
    const lines = stdout.text.trimEnd().split('\n');
    expect(lines.some((l) => l.startsWith('LeBron James\tpoints\t26.5'))).toBe(true);
    expect(lines.some((l) => l.startsWith(`${second.player}\t`))).toBe(false);
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

  it('login says when PROPS_API_KEY will still win over the key it stored', async () => {
    home = mkdtempSync(join(tmpdir(), 'props-config-'));
    const key = `pf_${'A1'.repeat(16)}`;
    const { ctx, stderr } = testContext(fakeClient({}), { terminal: true });
    const deps = {
      out: ctx.out,
      json: false,
      key: async () => key,
      baseUrl: 'http://127.0.0.1:9999',
      verify: async () => data.me,
      save: (config: StoredConfig) => writeStoredConfig(config, env()),
    };
    await runLogin({ ...deps, envKey: `pf_${'w'.repeat(32)}` }, { verify: true });
    expect(stderr.text).toMatch(
      /\nPROPS_API_KEY is set and wins over the stored key: `unset PROPS_API_KEY` to use this one\.\n$/,
    );
    const same = testContext(fakeClient({}), { terminal: true });
    await runLogin({ ...deps, out: same.ctx.out, envKey: key }, { verify: true });
    expect(same.stderr.text).not.toContain('PROPS_API_KEY');
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
