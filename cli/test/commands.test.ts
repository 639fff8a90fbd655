/** Each command's exact output, on a terminal (no colour) and piped, against fixtures. */
import { describe, expect, it } from 'vitest';
import { runEdges } from '../src/commands/edges';
import { runEntries } from '../src/commands/entries';
import { parseLeg, runEvaluateSlip } from '../src/commands/evaluateSlip';
import { runGameProps } from '../src/commands/gameProps';
import { runGames } from '../src/commands/games';
import { runMe } from '../src/commands/me';
import { runMovement } from '../src/commands/movement';
import { runPlayerContext } from '../src/commands/playerContext';
import { runPlayerProps } from '../src/commands/playerProps';
import { runPropHistory } from '../src/commands/propHistory';
import { runResults } from '../src/commands/results';
import { runScan } from '../src/commands/scan';
import { runSports } from '../src/commands/sports';
import { runTrackRecord } from '../src/commands/trackRecord';
import * as data from './data';
import { expectFixture, fakeClient, testContext } from './harness';

const client = fakeClient({
  sports: async () => data.sports,
  games: async () => data.games,
  gameProps: async () => data.gameProps,
  scan: async () => data.scan,
  me: async () => data.me,
  playerProps: async () => data.playerProps,
  playerContext: async () => data.context,
  propHistory: async () => data.history,
  movement: async () => data.movers,
  entries: async () => data.entries,
  edges: async () => data.edges,
  evaluateSlip: async () => data.slip,
  results: async () => data.results,
  trackRecord: async () => data.record,
});

const cases: [
  string,
  Parameters<typeof testContext>[1]['columns'],
  (ctx: ReturnType<typeof testContext>['ctx']) => Promise<void>,
][] = [
  ['sports', 100, (ctx) => runSports(ctx)],
  ['games', 100, (ctx) => runGames(ctx, {})],
  ['game-props', 100, (ctx) => runGameProps(ctx, 'pp_8812345', {})],
  ['scan', 100, (ctx) => runScan(ctx, {})],
  ['scan-narrow', 60, (ctx) => runScan(ctx, {})],
  ['me', 100, (ctx) => runMe(ctx)],
  ['player-props', 100, (ctx) => runPlayerProps(ctx, 'tatum', {})],
  ['player-context', 100, (ctx) => runPlayerContext(ctx, 'tatum', {})],
  [
    'prop-history',
    100,
    (ctx) => runPropHistory(ctx, { eventId: 'ud_112240', player: 'Jayson Tatum', stat: 'points' }, {}),
  ],
  ['movement', 100, (ctx) => runMovement(ctx, {})],
  ['entries', 100, (ctx) => runEntries(ctx)],
  ['edges', 100, (ctx) => runEdges(ctx, {})],
  [
    'evaluate-slip',
    100,
    (ctx) => runEvaluateSlip(ctx, [parseLeg('jokic:rebounds:over'), parseLeg('jokic:pra:over@prizepicks')]),
  ],
  ['results', 100, (ctx) => runResults(ctx, {})],
  ['track-record', 100, (ctx) => runTrackRecord(ctx, {})],
  ['track-record-edges', 100, (ctx) => runTrackRecord(ctx, { edges: true })],
];

describe.each(cases)('props %s', (name, columns, run) => {
  it('prints a table on a terminal', async () => {
    const { ctx, stdout } = testContext(client, { terminal: true, columns });
    await run(ctx);
    expectFixture(`${name}.terminal.txt`, stdout.text);
  });

  it('prints tab-separated rows when piped', async () => {
    const { ctx, stdout } = testContext(client, { terminal: false });
    await run(ctx);
    expectFixture(`${name}.piped.txt`, stdout.text);
  });

  it('prints the API JSON exactly with --json', async () => {
    const { ctx, stdout } = testContext(client, { terminal: true, json: true });
    await run(ctx);
    const answers = {
      sports: data.sports,
      games: data.games,
      'game-props': data.gameProps,
      me: data.me,
      'player-props': data.playerProps,
      'player-context': data.context,
      'prop-history': data.history,
      movement: data.movers,
      entries: data.entries,
      edges: data.edges,
      'evaluate-slip': data.slip,
      results: data.results,
      'track-record': data.record,
      'track-record-edges': data.record,
    };
    const expected = answers[name as keyof typeof answers] ?? data.scan;
    expect(JSON.parse(stdout.text)).toEqual(expected);
  });
});

describe('props evaluate-slip legs', () => {
  it('reads player:stat:side[@book]', () => {
    expect(parseLeg('Nikola Jokic:points:over@PrizePicks')).toEqual({
      player: 'Nikola Jokic',
      stat: 'points',
      side: 'over',
      book: 'prizepicks',
    });
    expect(parseLeg("De'Aaron Fox:pra:under")).toEqual({ player: "De'Aaron Fox", stat: 'pra', side: 'under' });
  });

  it.each([
    ['jokic:points', "'jokic:points' is not a leg"],
    ['jokic:points:higher', "'jokic:points:higher' is not a leg"],
    ['jokic:Points Total:over', 'a stat key is lowercase snake case'],
    ['jokic:points:over@draftkings', "unknown book 'draftkings'"],
  ])('refuses %s as a usage error', (leg, message) => {
    expect(() => parseLeg(leg)).toThrow(message);
    try {
      parseLeg(leg);
    } catch (err) {
      expect((err as { exitCode: number }).exitCode).toBe(2);
    }
  });
});
