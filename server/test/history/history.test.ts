/**
 * Line history and game logs on both engines: SQLite always, PostgreSQL when it is reachable
 * (a fresh schema per run; see test/shared/engines.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGameLogStore } from '../../src/history/gameLogs';
import { createLineHistoryStore, type HistoryGame, type LineChange } from '../../src/history/lineHistory';
import type { GameLog } from '../../src/history/types';
import { type Db, openDb } from '../../src/store/db';
import { createTestSchema, enginesAvailable, type TestSchema } from '../shared/engines';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const MIN = 60_000;

const games: HistoryGame[] = [
  {
    id: 'pp_1',
    mergedId: 'pp_1',
    book: 'prizepicks',
    sport: 'nba',
    homeTeam: 'Boston Celtics',
    awayTeam: 'Los Angeles Lakers',
    startMs: T0 + 600 * MIN,
  },
  {
    id: 'ud_9',
    mergedId: 'pp_1',
    book: 'underdog',
    sport: 'nba',
    homeTeam: 'Boston Celtics',
    awayTeam: 'Los Angeles Lakers',
    startMs: T0 + 600 * MIN,
  },
];

const change = (
  book: 'prizepicks' | 'underdog',
  gameId: string,
  at: number,
  line: number | null,
  over?: number,
  under?: number,
): LineChange => ({
  book,
  sport: 'nba',
  gameId,
  playerKey: 'luka doncic|los angeles lakers',
  player: book === 'prizepicks' ? 'Luka Doncic' : 'Luka Dončić',
  team: 'Los Angeles Lakers',
  stat: 'points',
  at,
  line,
  overOdds: over,
  underOdds: under,
});

const changes: LineChange[] = [
  change('prizepicks', 'pp_1', T0, 30.5),
  change('underdog', 'ud_9', T0 + MIN, 30.5, -110, -110),
  change('underdog', 'ud_9', T0 + 60 * MIN, 30.5, -125, 105),
  change('prizepicks', 'pp_1', T0 + 90 * MIN, 31.5),
  change('underdog', 'ud_9', T0 + 120 * MIN, 32.5, -110, -110),
  change('prizepicks', 'pp_1', T0 + 180 * MIN, null),
  { ...change('underdog', 'ud_9', T0 + 5 * MIN, 6.5, -115, -105), stat: 'assists' },
];

function log(playerKey: string, date: string, stat: string, value: number, opponent = 'Boston Celtics'): GameLog {
  return {
    sport: 'nba',
    player: 'Luka Dončić',
    playerKey,
    team: 'Los Angeles Lakers',
    opponent,
    home: false,
    date,
    stat,
    value,
    source: 'recorded',
  };
}

const engines: { name: string; open: () => Promise<{ db: Db; cleanup: () => Promise<void> }> }[] = [
  {
    name: 'sqlite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'propsfeed-history-'));
      const db = await openDb({ dataDir: dir });
      return {
        db,
        cleanup: async () => {
          await db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    async open() {
      const schema: TestSchema = await createTestSchema('hist');
      const db = await openDb({ databaseUrl: schema.url, dataDir: '.' });
      return {
        db,
        cleanup: async () => {
          await db.close();
          await schema.drop();
        },
      };
    },
  },
];

const pgUp = await enginesAvailable({ postgres: true });

describe.each(engines)('history on $name', ({ name, open }) => {
  const skip = name === 'postgres' && !pgUp;
  let db: Db;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (skip) return;
    ({ db, cleanup } = await open());
    await createLineHistoryStore(db).record({ games, changes });
  });
  afterAll(async () => {
    if (!skip) await cleanup();
  });

  it.skipIf(skip)('resolves a game by its id or any alias', async () => {
    const history = createLineHistoryStore(db);
    const want = { gameId: 'pp_1', sport: 'nba', bookGameIds: expect.arrayContaining(['pp_1', 'ud_9']) };
    expect(await history.resolveGame('ud_9')).toEqual(want);
    expect(await history.resolveGame('pp_1')).toEqual(want);
    expect(await history.resolveGame('pp_404')).toBeUndefined();
  });

  it.skipIf(skip)('gives every change of one prop per book, oldest first, with opening and current', async () => {
    const h = await createLineHistoryStore(db).propHistory({ gameId: 'ud_9', player: 'luka doncic', stat: 'points' });
    expect(h).toMatchObject({
      gameId: 'pp_1',
      sport: 'nba',
      playerKey: 'luka doncic|los angeles lakers',
      stat: 'points',
      truncated: false,
    });
    const [pp, ud] = h?.books ?? [];
    expect(pp).toEqual({
      source: 'prizepicks',
      gameId: 'pp_1',
      opening: { at: T0, line: 30.5 },
      current: { at: T0 + 90 * MIN, line: 31.5 },
      changes: [
        { at: T0, line: 30.5 },
        { at: T0 + 90 * MIN, line: 31.5 },
      ],
      pulled: true,
    });
    expect(ud?.changes).toEqual([
      { at: T0 + MIN, line: 30.5, overOdds: -110, underOdds: -110 },
      { at: T0 + 60 * MIN, line: 30.5, overOdds: -125, underOdds: 105 },
      { at: T0 + 120 * MIN, line: 32.5, overOdds: -110, underOdds: -110 },
    ]);
    expect(ud?.pulled).toBe(false);
  });

  it.skipIf(skip)('filters by book and time, truncates to the newest changes, matches names loosely', async () => {
    const history = createLineHistoryStore(db);
    const ud = await history.propHistory({
      gameId: 'pp_1',
      player: 'LUKA DONČIĆ',
      stat: 'points',
      source: 'underdog',
      untilMs: T0 + 60 * MIN,
      maxChanges: 1,
    });
    expect(ud?.books.map((b) => [b.source, b.opening.line, b.changes])).toEqual([
      ['underdog', 30.5, [{ at: T0 + 60 * MIN, line: 30.5, overOdds: -125, underOdds: 105 }]],
    ]);
    expect(ud?.truncated).toBe(true);
    expect(await history.propHistory({ gameId: 'pp_1', player: 'Someone Else', stat: 'points' })).toBeUndefined();
    expect(await history.propHistory({ gameId: 'pp_1', player: 'Luka Doncic', stat: 'rebounds' })).toBeUndefined();
  });

  it.skipIf(skip)('gives the latest point of each book line changed since a time, and the newest time', async () => {
    const latest = await createLineHistoryStore(db).latestPoints(T0 + 2 * MIN);
    const byKey = (c: LineChange) => `${c.book}|${c.stat}`;
    expect(latest.sort((a, b) => byKey(a).localeCompare(byKey(b)))).toEqual(
      [
        change('prizepicks', 'pp_1', T0 + 180 * MIN, null),
        { ...change('underdog', 'ud_9', T0 + 5 * MIN, 6.5, -115, -105), stat: 'assists' },
        change('underdog', 'ud_9', T0 + 120 * MIN, 32.5, -110, -110),
      ].map((c) => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined))),
    );
    expect(await createLineHistoryStore(db).latestPoints(T0 + 181 * MIN)).toEqual([]);
    expect(await createLineHistoryStore(db).lastRecordedAt()).toBe(T0 + 180 * MIN);
  });

  it.skipIf(skip)('gives movers: open and current per merged prop and book, pulled lines left out', async () => {
    const history = createLineHistoryStore(db);
    const all = await history.movers({ sport: 'nba', stat: 'points' });
    expect(all).toEqual([
      {
        gameId: 'pp_1',
        sport: 'nba',
        player: 'Luka Dončić',
        playerKey: 'luka doncic|los angeles lakers',
        stat: 'points',
        books: [
          {
            source: 'underdog',
            openLine: 30.5,
            currentLine: 32.5,
            openOverOdds: -110,
            openUnderOdds: -110,
            currentOverOdds: -110,
            currentUnderOdds: -110,
          },
        ],
      },
    ]);
    const since = await history.movers({ sport: 'nba', stat: 'points', sinceMs: T0 + 60 * MIN });
    expect(since[0]?.books[0]).toMatchObject({ openLine: 30.5, openOverOdds: -125, currentLine: 32.5 });
    const before = await history.movers({ sport: 'nba', untilMs: T0 + 100 * MIN });
    expect(before.map((m) => [m.stat, m.books.map((b) => [b.source, b.openLine, b.currentLine])])).toEqual(
      expect.arrayContaining([
        [
          'points',
          [
            ['prizepicks', 30.5, 31.5],
            ['underdog', 30.5, 30.5],
          ],
        ],
        ['assists', [['underdog', 6.5, 6.5]]],
      ]),
    );
    expect(await history.movers({ sport: 'mlb' })).toEqual([]);
  });

  it.skipIf(skip)('appends game logs once and reads them newest first', async () => {
    const logs = createGameLogStore(db);
    const key = 'luka doncic|los angeles lakers';
    const batch = [
      log(key, '2026-11-18', 'points', 31),
      log(key, '2026-11-20', 'points', 28, 'Denver Nuggets'),
      log(key, '2026-11-19', 'points', 35, 'Utah Jazz'),
      log(key, '2026-11-20', 'assists', 9, 'Denver Nuggets'),
      log('jayson tatum|boston celtics', '2026-11-20', 'points', 26),
    ];
    expect(await logs.append(batch)).toBe(5);
    expect(await logs.append([...batch, { ...log(key, '2026-11-21', 'points', 40), source: 'import' }])).toBe(1);
    const mine = await logs.forPlayer({ sport: 'nba', playerKey: key, stat: 'points', limit: 3 });
    expect(mine.map((l) => [l.date, l.value, l.home, l.source])).toEqual([
      ['2026-11-21', 40, false, 'import'],
      ['2026-11-20', 28, false, 'recorded'],
      ['2026-11-19', 35, false, 'recorded'],
    ]);
    expect((await logs.forPlayer({ sport: 'nba', playerKey: key })).length).toBe(5);
    const points = await logs.forStat('nba', 'points', { sinceDate: '2026-11-20' });
    expect(points.map((l) => [l.playerKey, l.date])).toEqual([
      [key, '2026-11-21'],
      ['jayson tatum|boston celtics', '2026-11-20'],
      [key, '2026-11-20'],
    ]);
  });

  it.skipIf(skip)(
    'reads every log at once, grouped by player and stat, newest first and the later stored first on a date',
    async () => {
      const logs = createGameLogStore(db);
      // Players no other test of this store logs: the store is shared by the file's tests.
      const key = 'jalen brunson|new york knicks';
      const other = 'tyrese haliburton|indiana pacers';
      const hali = {
        ...log(other, '2026-11-20', 'points', 26),
        home: true,
        player: 'Tyrese "Hali" Haliburton',
      };
      await logs.append([
        log(key, '2026-11-18', 'points', 31),
        log(key, '2026-11-20', 'points', 0.1 + 0.2, 'Utah Jazz'),
      ]);
      await logs.append([
        hali,
        log(key, '2026-11-20', 'points', 28, 'Denver Nuggets'),
        log(key, '2026-11-19', 'assists', 9),
      ]);
      await logs.append([{ ...log(key, '2026-11-21', 'points', 1 / 3), source: 'import' }]);
      // These players' logs (the other tests' are there too), groups in key order (the read
      // promises none; a stable sort keeps each group's own order, which is what is checked).
      const group = (l: GameLog) => `${l.playerKey}|${l.stat}`;
      const all = (await logs.all())
        .filter((l) => l.playerKey === key || l.playerKey === other)
        .sort((x, y) => (group(x) < group(y) ? -1 : group(x) > group(y) ? 1 : 0));
      expect(all.map((l) => [l.playerKey, l.stat, l.date, l.opponent, l.value])).toEqual([
        [key, 'assists', '2026-11-19', 'Boston Celtics', 9],
        [key, 'points', '2026-11-21', 'Boston Celtics', 1 / 3],
        [key, 'points', '2026-11-20', 'Denver Nuggets', 28],
        [key, 'points', '2026-11-20', 'Utah Jazz', 0.1 + 0.2],
        [key, 'points', '2026-11-18', 'Boston Celtics', 31],
        [other, 'points', '2026-11-20', 'Boston Celtics', 26],
      ]);
      expect(all[5]).toEqual(hali);
      expect(all[1]).toEqual({ ...log(key, '2026-11-21', 'points', 1 / 3), source: 'import' });
    },
  );
});

/** Games ending at different times (one with an alias seen final, one with an alias dropped before its end), and one not final. */
const END_A = T0 + 900 * MIN;
const END_B = T0 + 1_500 * MIN;
const pruneGames: HistoryGame[] = [
  { ...(games[0] as HistoryGame), endedMs: END_A },
  { ...(games[1] as HistoryGame), endedMs: END_A },
  { ...(games[0] as HistoryGame), id: 'pp_2', mergedId: 'pp_2', endedMs: END_B },
  // Dropped by its book before the game went final: pruned with the game it merged into.
  { ...(games[1] as HistoryGame), id: 'ud_8', mergedId: 'pp_2' },
  { ...(games[0] as HistoryGame), id: 'pp_3', mergedId: 'pp_3' },
];
/** 120 players a game (more props than one pruning statement takes), three points each. */
const pruneChanges: LineChange[] = ['pp_1', 'ud_9', 'pp_2', 'ud_8', 'pp_3'].flatMap((gameId) =>
  Array.from({ length: 120 }, (_, p) =>
    [0, 1, 2].map((k) => ({
      ...change(gameId.startsWith('pp') ? 'prizepicks' : 'underdog', gameId, T0 + (p + k) * MIN, 20.5 + k),
      playerKey: `player ${p}|los angeles lakers`,
      player: `Player ${p}`,
    })),
  ).flat(),
);

describe.each(engines)('line history pruning on $name', ({ name, open }) => {
  const skip = name === 'postgres' && !pgUp;
  let db: Db;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    if (skip) return;
    ({ db, cleanup } = await open());
    await createLineHistoryStore(db).record({ games: pruneGames, changes: pruneChanges });
    // Seen final again later (a restart): the first sighting stays the end.
    await createLineHistoryStore(db).record({
      games: [{ ...(pruneGames[0] as HistoryGame), endedMs: END_B }],
      changes: [],
    });
  });
  afterAll(async () => {
    if (!skip) await cleanup();
  });

  const pointsByGame = async () => {
    const { rows } = await sql<{ game_id: string; n: number | string }>`
      select game_id, count(*) as n from line_history group by game_id order by game_id`.execute(db.kysely);
    return Object.fromEntries(rows.map((r) => [r.game_id, Number(r.n)]));
  };

  it.skipIf(skip)('removes exactly the points of games ended before the cutoff, keeps games not final', async () => {
    const history = createLineHistoryStore(db);
    expect(await pointsByGame()).toEqual({ pp_1: 360, pp_2: 360, pp_3: 360, ud_8: 360, ud_9: 360 });
    const before = await history.propHistory({ gameId: 'pp_3', player: 'Player 7', stat: 'points' });
    expect(await history.pruneEnded(END_A)).toBe(0);
    expect(await history.pruneEnded(END_A + 1)).toBe(720);
    expect(await pointsByGame()).toEqual({ pp_2: 360, pp_3: 360, ud_8: 360 });
    expect(await history.propHistory({ gameId: 'ud_9', player: 'Player 7', stat: 'points' })).toBeUndefined();
    expect(await history.pruneEnded(END_B + 1)).toBe(720);
    expect(await history.pruneEnded(Number.MAX_SAFE_INTEGER)).toBe(0);
    expect(await pointsByGame()).toEqual({ pp_3: 360 });
    expect(await history.propHistory({ gameId: 'pp_3', player: 'Player 7', stat: 'points' })).toEqual(before);
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from history_props`.execute(db.kysely);
    expect(Number(rows[0]?.n)).toBe(120);
  });

  it.skipIf(skip)('records a pruned line again as new history', async () => {
    const history = createLineHistoryStore(db);
    await history.record({ games: [], changes: [change('prizepicks', 'pp_1', END_B, 25.5)] });
    const again = await history.propHistory({ gameId: 'pp_1', player: 'Luka Doncic', stat: 'points' });
    expect(again?.books.map((b) => [b.source, b.changes])).toEqual([['prizepicks', [{ at: END_B, line: 25.5 }]]]);
  });
});
