/**
 * `game.started`, `game.final` and `prop.settled`: a game going live and final on the board
 * reaches subscribed endpoints, and once its results are in the store (the lines locked at
 * its start, the players' recorded final values) each settled prop is one `prop.settled`
 * event, the prop as GET /api/v1/props/results shows it. Verified with `standardwebhooks`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type WebhookEvent, WebhookEventSchema } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Board, BoardGame } from '../../src/board/types';
import { createGameLogStore } from '../../src/history/gameLogs';
import { createSettlementStore } from '../../src/history/settlement';
import { openBoardData } from '../../src/runtime';
import { type Db, openDb } from '../../src/store/db';
import { buildTestApp, type TestApp } from '../helpers/app';
import { buildBoard, type GameSpec, TestBoardSource } from '../helpers/board';
import { type Receiver, startReceiver } from './receiver';
import { until } from './setup';

const START = '2026-11-22T02:00:00.000Z';
const spec = (line: number, live = false): GameSpec[] => [
  {
    id: 'pp_1',
    startTime: START,
    live,
    props: [
      { player: 'Aaron Wilson', stat: 'points', line, liveValue: 25 },
      { player: 'Ben Cole', stat: 'rebounds', line: 7.5, liveValue: 4 },
    ],
  },
  { id: 'pp_2', sport: 'mlb', props: [{ player: 'Carl Diaz', stat: 'hits', line: 0.5 }] },
];

/** The board with pp_1 final. */
function finalBoard(): Board {
  const board = buildBoard(spec(20.5, true));
  const games = board.games.map(
    (g): BoardGame => (g.id === 'pp_1' ? { ...g, state: 'final', live: false, clock: undefined } : g),
  );
  return { ...board, games, gameById: new Map(games.map((g) => [g.id, g])) };
}

let dir: string;
let db: Db;
let t: TestApp;
let stopData: () => void;
let receiver: Receiver;
const source = new TestBoardSource(buildBoard(spec(20.5)));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propsfeed-settled-'));
  db = await openDb({ dataDir: dir });
  const lock = (player: string, stat: string, book: 'prizepicks' | 'underdog', line: number) => ({
    gameId: 'pp_1',
    book,
    sport: 'nba' as const,
    playerKey: `${player.toLowerCase()}|team`,
    player,
    stat,
    homeTeam: 'Denver Nuggets',
    awayTeam: 'Los Angeles Lakers',
    startMs: Date.parse(START),
    date: '2026-11-22',
    line,
    pOver: 0.5,
    pUnder: 0.5,
    basis: 'prices' as const,
    lockedAt: Date.parse(START),
  });
  await createSettlementStore(db).lock([
    lock('Aaron Wilson', 'points', 'prizepicks', 20.5),
    lock('Aaron Wilson', 'points', 'underdog', 21.5),
    lock('Ben Cole', 'rebounds', 'prizepicks', 7.5),
  ]);
  const boardData = await openBoardData(db, source, () => {});
  stopData = () => boardData.stop();
  t = await buildTestApp({ source, dataDir: dir, boardData, now: () => Date.parse('2026-11-22T06:00:00.000Z') });
  receiver = await startReceiver();
  const register = async (path: string, events: string[]) => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: `Bearer ${t.keys.sharp}` },
      payload: { url: `${receiver.url}/${path}`, events, filters: { sports: ['nba'] } },
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    receiver.secrets.push(res.json().secret);
  };
  await register('games', ['game.started', 'game.final']);
  await register('settled', ['prop.settled']);
  source.publish(buildBoard(spec(20.5, true)));
  source.publish(finalBoard());
  // The final values are recorded (the feed writes them when the game goes final).
  await createGameLogStore(db).append(
    [
      ['Aaron Wilson', 'points', 25],
      ['Ben Cole', 'rebounds', 4],
    ].map(([player, stat, value]) => ({
      sport: 'nba' as const,
      player: player as string,
      playerKey: `${String(player).toLowerCase()}|team`,
      team: 'Denver Nuggets',
      opponent: 'Los Angeles Lakers',
      home: true,
      date: '2026-11-22',
      stat: stat as string,
      value: value as number,
      source: 'recorded' as const,
    })),
  );
}, 60_000);

afterAll(async () => {
  await t.close({ keepData: true });
  stopData();
  await db.close();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

const at = (path: string) => receiver.events().filter((_, i) => receiver.received[i]?.path.endsWith(`/${path}`));

describe('games and settlement', () => {
  it('sends game.started when the game goes live and game.final when it ends', async () => {
    await receiver.waitFor((r) => r.filter((x) => x.path.endsWith('/games')).length === 2);
    const events = at('games') as WebhookEvent[];
    expect(events.map((e) => `${e.type} ${(e.data as { game: { id: string; state: string } }).game.state}`)).toEqual([
      'game.started live',
      'game.final final',
    ]);
  });

  it('sends each settled prop once its results are in the store, as /props/results shows it', async () => {
    await until(() => receiver.received.filter((x) => x.path.endsWith('/settled')).length === 2, 15_000);
    const settled = at('settled').map((e) => (e as Extract<WebhookEvent, { type: 'prop.settled' }>).data);
    const results = (await t.get('/api/v1/props/results?date=2026-11-22&sport=nba', t.keys.sharp)).json()
      .results as unknown[];
    expect(settled).toEqual(results);
    expect(settled[0]).toMatchObject({
      player: 'Aaron Wilson',
      finalValue: 25,
      books: [
        { source: 'prizepicks', closingLine: 20.5, result: 'over' },
        { source: 'underdog', closingLine: 21.5, result: 'over' },
      ],
    });
    expect(receiver.received.every((r) => r.event)).toBe(true);
    for (const event of receiver.events()) expect(WebhookEventSchema.parse(event)).toEqual(event);
  });
});
