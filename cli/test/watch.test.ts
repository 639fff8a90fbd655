/** `props stream` from a stream of events: one line per change on a terminal, TSV piped, NDJSON with --json. */
import type { ScanRow } from '@propsfeed/contract';
import type { StreamMessage } from '@propsfeed/sdk';
import { describe, expect, it } from 'vitest';
import { runStream } from '../src/commands/stream';
import { fakeClient, testContext } from './harness';

const row = {
  player: 'Aaron Wilson',
  stat: 'points',
  line: 21.5,
  overOdds: -120,
  underOdds: 100,
  bookCount: 2,
  gameState: 'pre',
  books: [
    { source: 'prizepicks', line: 21.5 },
    { source: 'underdog', line: 21.5, overOdds: -120, underOdds: 100 },
  ],
  eventId: 'pp_1',
  sport: 'nba',
  homeTeam: 'Denver Nuggets',
  awayTeam: 'Los Angeles Lakers',
  startTime: '2026-11-22T02:00:00.000Z',
  source: 'prizepicks',
  fetchedAt: 0,
} as unknown as ScanRow;

const events: StreamMessage[] = [
  { type: 'snapshot', reset: false, boardVersion: 7, fetchedAt: null, delayed: false, games: [], rows: [row], id: '7' },
  { type: 'prop', row, previous: { line: 20.5, overOdds: -115, underOdds: -105 }, id: '8.1' },
  { type: 'prop.removed', eventId: 'pp_1', sport: 'nba', player: 'Ben\u001b[2JCole', stat: 'rebounds', id: '8.2' },
  {
    type: 'prop.removed',
    eventId: 'pp_1',
    sport: 'nba',
    player: 'Carl Diaz',
    stat: 'points',
    reason: 'below_min_edge',
    id: '8.3',
  },
  { type: 'heartbeat', at: '2026-11-22T00:00:15.000Z' },
];

describe('props stream', () => {
  it('prints each change as a line on a terminal, with old and new line and odds, names escaped', async () => {
    const { ctx, stdout, stderr } = testContext(fakeClient({}), { terminal: true, events });
    await runStream(ctx, {});
    expect(stderr.text).toContain('Watching 1 props in 0 games (all sports of your tier)');
    const lines = stdout.text.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    // 101 columns on a 100-column terminal: the last word wraps, under the player.
    expect(lines[0]).toBe(
      '00:00:00  Aaron Wilson  points  20.5 (-115/-105) → 21.5 (-120/+100)  LAL @ DEN · prizepicks,',
    );
    expect(lines[1]).toBe('          underdog');
    expect(lines[2]).toContain('Ben\\x1b[2JCole  rebounds  pulled');
    expect(lines[3]).toContain('Carl Diaz  points  below min edge');
  });

  it('prints TSV when piped and NDJSON with --json', async () => {
    const piped = testContext(fakeClient({}), { terminal: false, events });
    await runStream(piped.ctx, {});
    expect(piped.stdout.text.split('\n')[0]?.split('\t')).toEqual([
      '2026-11-22T00:00:00.000Z',
      'Aaron Wilson',
      'points',
      '20.5',
      '-115/-105',
      '21.5',
      '-120/+100',
      'prizepicks,underdog',
      'pp_1',
      'LAL @ DEN',
    ]);
    const json = testContext(fakeClient({}), { terminal: false, json: true, events });
    await runStream(json.ctx, {});
    expect(
      json.stdout.text
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as StreamMessage).type),
    ).toEqual(['snapshot', 'prop', 'prop.removed', 'prop.removed', 'heartbeat']);
  });

  it('asks the stream for --min-edge and its other filters', async () => {
    const { ctx, streamed } = testContext(fakeClient({}), { terminal: false, events: [] });
    await runStream(ctx, { sport: ['nba'], stat: 'points', minEdge: 0.02 });
    expect(streamed).toEqual([{ sport: ['nba'], stats: 'points', minEdge: 0.02 }]);
  });

  describe('one line per visible change', () => {
    const live = { ...row, gameState: 'live', liveValue: 14, gameClock: 'Q3 4:12' } as ScanRow;
    const game = {
      id: 'pp_1',
      sport: 'nba',
      homeTeam: 'Orlando Magic',
      awayTeam: 'New York Knicks',
      startTime: '2026-11-22T02:00:00.000Z',
      live: true,
      state: 'live',
      source: 'prizepicks',
      clock: 'Q3 4:12',
    } as const;
    const quote = { line: 21.5, overOdds: -120, underOdds: 100 };
    const stream: StreamMessage[] = [
      { type: 'snapshot', reset: false, boardVersion: 1, fetchedAt: null, delayed: false, games: [game], rows: [live] },
      // The clock ticked; the value did not: nothing to see.
      { type: 'prop', row: { ...live, gameClock: 'Q3 3:58' }, previous: quote },
      { type: 'game', game: { ...game, clock: 'Q3 3:58' } },
      // The value moved: one line with the clock.
      { type: 'prop', row: { ...live, liveValue: 16, gameClock: 'Q3 3:40' }, previous: quote },
      { type: 'prop.removed', eventId: 'pp_1', sport: 'nba', player: 'Aaron Wilson', stat: 'points' },
      { type: 'prop', row: { ...live, liveValue: 16, gameClock: 'Q3 3:10' }, previous: null },
      { type: 'game', game: { ...game, state: 'final', live: false } },
    ];

    it('prints nothing for a clock tick, and names the game on every line', async () => {
      const { ctx, stdout } = testContext(fakeClient({}), { terminal: true, events: stream });
      await runStream(ctx, {});
      expect(stdout.text.trimEnd().split('\n')).toEqual([
        '00:00:00  Aaron Wilson  points  live 16 of 21.5 · Q3 3:40  NYK @ ORL · prizepicks, underdog',
        '00:00:00  Aaron Wilson  points  pulled  NYK @ ORL',
        '00:00:00  Aaron Wilson  points  21.5 back (-120/+100)  NYK @ ORL · prizepicks, underdog',
        '00:00:00  NYK @ ORL  final',
      ]);
    });

    it('--quiet-live leaves out live-value ticks only', async () => {
      const { ctx, stdout } = testContext(fakeClient({}), { terminal: false, events: stream });
      await runStream(ctx, { quietLive: true });
      expect(
        stdout.text
          .trimEnd()
          .split('\n')
          .map((l) => l.split('\t')[5]),
      ).toEqual(['pulled', '21.5 back', 'final']);
    });
  });
});
