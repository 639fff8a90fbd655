/**
 * What a bettor reads: each book's line when the books disagree, the board's true top N,
 * movers' units, slip legs that say which player, and games' state.
 */
import type { ScanRow } from '@propsfeed/contract';
import { InvalidRequestError } from '@propsfeed/sdk';
import { describe, expect, it } from 'vitest';
import { runEdges } from '../src/commands/edges';
import { parseLeg } from '../src/commands/evaluateSlip';
import { runGames } from '../src/commands/games';
import { runMovement } from '../src/commands/movement';
import { runPlayerProps } from '../src/commands/playerProps';
import { runScan } from '../src/commands/scan';
import { describeError } from '../src/errors';
import { runCli } from '../src/program';
import * as data from './data';
import { capture, fakeClient, testContext } from './harness';

describe('a prop the books disagree on', () => {
  it('shows each side at its best book, the edge with its book and line, and the team (terminal)', async () => {
    const { ctx, stdout } = testContext(fakeClient({ playerProps: async () => data.pitman }), {
      terminal: true,
      columns: 140,
    });
    await runPlayerProps(ctx, 'tariq pitman', {});
    const [heading, header, row] = stdout.text.split('\n');
    expect(heading).toBe('Tariq Pitman · New York Knicks');
    expect(header).toMatch(/^STAT\s+LINE\s+OVER\s+UNDER\s+BOOKS\s+EDGE \(% pts\)\s+GAME/);
    // Over best at PrizePicks 4.5 (no odds there), under best at Underdog 5 (-105).
    expect(row).toMatch(/^rebounds\s+o4\.5 pp \/ u5 ud\s+–\s+-105\s+2\s+over 4\.5 pp \+0\.4\s+NYK @ ORL\s/);
  });

  it('lists every book line and odds when piped, the consensus line staying a number', async () => {
    const { ctx, stdout } = testContext(fakeClient({ playerProps: async () => data.pitman }), { terminal: false });
    await runPlayerProps(ctx, 'tariq pitman', {});
    const fields = stdout.text.trimEnd().split('\t');
    expect(fields.slice(0, 6)).toEqual(['rebounds', '5', '-115', '-105', '2', 'prizepicks over 4.5 0.0038']);
    expect(fields.slice(-2)).toEqual(['New York Knicks', 'prizepicks 4.5, underdog 5 -115/-105']);
  });

  it('keeps --json as the API answered', async () => {
    const { ctx, stdout } = testContext(fakeClient({ playerProps: async () => data.pitman }), {
      terminal: true,
      json: true,
    });
    await runPlayerProps(ctx, 'tariq pitman', {});
    expect(JSON.parse(stdout.text)).toEqual(data.pitman);
  });

  it('shows one line when the books agree', async () => {
    const agreeing = {
      ...data.disagreeing,
      books: [
        { source: 'prizepicks' as const, line: 5 },
        { source: 'underdog' as const, line: 5, overOdds: -115, underOdds: -105 },
      ],
    };
    const { ctx, stdout } = testContext(
      fakeClient({ playerProps: async () => ({ ...data.pitman, rows: [agreeing] }) }),
      { terminal: true },
    );
    await runPlayerProps(ctx, 'tariq pitman', {});
    expect(stdout.text.split('\n')[2]).toMatch(/^rebounds\s+5\s+-115\s+-105\s+2/);
  });
});

describe('scan --sort and --min-books', () => {
  it('go to the API as query parameters, so --limit takes the top of the whole board', async () => {
    const stdout = capture(false);
    const stderr = capture(false);
    const urls: string[] = [];
    const fetch = async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(data.scan), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const args = ['scan', '--stat', 'points', '--sort', 'line', '--min-books', '2', '--limit', '8'];
    const code = await runCli([...args, '--base-url', 'http://api.test', '--api-key', 'pf_x'], {
      stdout,
      stderr,
      env: { XDG_CONFIG_HOME: '/nonexistent-props-test' },
      fetch,
    });
    expect(code).toBe(0);
    const query = new URL(urls[0] ?? '').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      stat: 'points',
      limit: '8',
      sort: 'line',
      minBooks: '2',
    });
  });

  it('prints the rows in the order the API sent them', async () => {
    const reversed = { ...data.scan, rows: [...data.scan.rows].reverse() };
    const { ctx, stdout } = testContext(fakeClient({ scan: async () => reversed }), { terminal: false });
    await runScan(ctx, { sort: 'line' });
    expect(stdout.text.split('\n').map((l) => l.split('\t')[0])).toEqual([
      'Bam Adebayo',
      'Jayson Tatum',
      'LeBron James',
      '',
    ]);
  });
});

describe('--why', () => {
  // Each row's edge carries its workings; one holds a stored escape sequence that must not act.
  const [tatum, brown] = data.edges.rows as [ScanRow, ScanRow];
  const withWorkings = {
    ...data.edges,
    rows: [
      {
        ...tatum,
        edge: {
          ...tatum.edge!,
          workings:
            'Underdog 27.5 -120/-105 de-vigged (margin 4.4 %, mean 27.9) stacked with 40 games (season 26.1, form 28.4): normal mean 27.6 sd 6.1 cc',
        },
      },
      { ...brown, edge: { ...brown.edge!, workings: 'Underdog 22.5\u001b[2J cleared the screen' } },
    ],
  };
  const client = fakeClient({ edges: async () => withWorkings, scan: async () => ({ ...withWorkings, sport: 'nba' }) });

  it('prints each edge row’s workings under it, wrapped and indented, escaped (edges and scan)', async () => {
    for (const run of [
      (ctx: never) => runEdges(ctx, { why: true }),
      (ctx: never) => runScan(ctx, { sort: 'edge', why: true }),
    ]) {
      const { ctx, stdout } = testContext(client, { terminal: true, columns: 80 });
      await run(ctx as never);
      const lines = stdout.text.split('\n');
      const row = lines.findIndex((l) => l.startsWith('Jayson Tatum'));
      expect(lines.slice(row + 1, row + 3)).toEqual([
        '    Underdog 27.5 -120/-105 de-vigged (margin 4.4 %, mean 27.9) stacked with 40',
        '    games (season 26.1, form 28.4): normal mean 27.6 sd 6.1 cc',
      ]);
      expect(stdout.text).toContain('    Underdog 22.5\\x1b[2J cleared the screen');
      expect(stdout.text).not.toContain('\u001b[2J');
    }
  });

  it('says so when no row has an edge to explain', async () => {
    const { ctx, stdout } = testContext(fakeClient({ scan: async () => data.scan }), { terminal: true });
    await runScan(ctx, { why: true });
    expect(stdout.text).toContain('--why: no row has an edge to explain (edges are for pro and above).');
  });

  it('adds the workings as a last field when piped, and nothing without --why', async () => {
    const piped = testContext(client, { terminal: false });
    await runEdges(piped.ctx, { why: true });
    const [first, second] = piped.stdout.text.trimEnd().split('\n');
    expect(first?.split('\t').at(-1)).toMatch(/^Underdog 27\.5 -120\/-105 de-vigged .* sd 6\.1 cc$/);
    expect(second?.split('\t').at(-1)).toBe('Underdog 22.5\\x1b[2J cleared the screen');
    const plain = testContext(client, { terminal: true });
    await runEdges(plain.ctx, {});
    expect(plain.stdout.text).not.toContain('de-vigged');
  });
});

describe('props movement', () => {
  it('gives the odds move its unit in the header and the note', async () => {
    const { ctx, stdout } = testContext(fakeClient({ movement: async () => data.movers }), { terminal: true });
    await runMovement(ctx, {});
    expect(stdout.text.split('\n')[1]).toContain('ODDS MOVE (¢)');
    expect(stdout.text).toContain('since each line opened (from line history)');
    expect(stdout.text).toContain('odds move in cents of American odds');
  });
});

describe('slip legs', () => {
  it('take a team, a sport or a game after the player', () => {
    expect(parseLeg('Ronnie Washington@Knicks:threes:over@prizepicks')).toEqual({
      player: 'Ronnie Washington',
      team: 'Knicks',
      stat: 'threes',
      side: 'over',
      book: 'prizepicks',
    });
    expect(parseLeg('Ronnie Washington@NCAAB:threes:under')).toEqual({
      player: 'Ronnie Washington',
      sport: 'ncaab',
      stat: 'threes',
      side: 'under',
    });
    expect(parseLeg('Ronnie Washington@ud_112233:threes:over')).toEqual({
      eventId: 'ud_112233',
      player: 'Ronnie Washington',
      stat: 'threes',
      side: 'over',
    });
    // --sport and --game apply to legs without their own.
    expect(parseLeg('jokic:points:over', { sport: 'nba', game: 'pp_1' })).toEqual({
      eventId: 'pp_1',
      player: 'jokic',
      sport: 'nba',
      stat: 'points',
      side: 'over',
    });
    expect(() => parseLeg('jokic@:points:over')).toThrow(/nothing after '@'/);
    expect(() => parseLeg('jokic@a@b:points:over')).toThrow(/is not a leg/);
  });

  it('print an ambiguous leg’s choices one per line, quoted to paste', () => {
    const choices = ['Ronnie Washington@New York Knicks:threes:over', "D'Andre O'Neal@Duke Blue Devils:threes:over"];
    const err = new InvalidRequestError({
      status: 400,
      code: 'invalid_request',
      message: `leg 1 (Ronnie Washington threes): 'Ronnie Washington' matches more than one player; write the leg as one of: ${choices.join('; ')}`,
      choices,
    });
    expect(describeError(err)).toEqual({
      message: [
        "The API refused the request: leg 1 (Ronnie Washington threes): 'Ronnie Washington' matches more than one player; write the leg as one of:",
        "  'Ronnie Washington@New York Knicks:threes:over'",
        "  'D'\\''Andre O'\\''Neal@Duke Blue Devils:threes:over'",
      ].join('\n'),
      exitCode: 2,
    });
  });
});

describe('props games', () => {
  it('shows LIVE with the clock and FINAL', async () => {
    const { ctx, stdout } = testContext(fakeClient({ games: async () => data.games }), { terminal: true });
    await runGames(ctx, {});
    expect(stdout.text).toMatch(/pp_8812345 .* LIVE Q3 4:12 /);
    expect(stdout.text).toMatch(/ud_112201 .* FINAL /);
  });
});
