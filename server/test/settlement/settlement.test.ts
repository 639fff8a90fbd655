/**
 * Settlement on both engines (SQLite always, PostgreSQL when reachable): the lock writer
 * stores each prop's closing lines and published chances when its game starts, and the
 * recorded final values settle them over, under or push; a game that never finished is not
 * settled. Stored, so a second reader (another replica, a restart) reads the same.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Board, BoardGame } from '../../src/board/types';
import { PropLockWriter } from '../../src/feed/lockWriter';
import { createGameLogStore } from '../../src/history/gameLogs';
import { createSettlementStore, resultOf } from '../../src/history/settlement';
import type { GameLog } from '../../src/history/types';
import { type Db, openDb } from '../../src/store/db';
import { type GameSpec, gameOf } from '../helpers/board';
import { createTestSchema, enginesAvailable, type TestSchema } from '../shared/engines';

const SILENT = { info() {}, warn() {}, error() {} };
const START = '2026-11-22T02:00:00.000Z';
const START_MS = Date.parse(START);
const MIN = 60_000;

const ann = { player: 'Ann Lee', stat: 'points', line: 24.5, team: 'denver nuggets' };
const bo = { player: 'Bo Kim', stat: 'rebounds', line: 7, team: 'denver nuggets', books: ['prizepicks' as const] };
const cy = { player: 'Cy Diaz', stat: 'assists', line: 4.5, team: 'los angeles lakers' };
/** Plays in pp_2, a game that starts and never finishes: no final value is ever recorded. */
const di = { player: 'Di Fox', stat: 'points', line: 12.5, team: 'utah jazz' };

function board(version: number, games: { spec: GameSpec; state: BoardGame['state'] }[]): Board {
  const built = games.map(({ spec, state }) => ({ ...gameOf({ ...spec, live: state === 'live' }, START_MS), state }));
  return { version, fetchedAt: START_MS, games: built, gameById: new Map(built.map((g) => [g.id, g])) };
}

/** Ten earlier games of Ann Lee's points (the distribution's spread) and the final values of the 22nd. */
function logs(): GameLog[] {
  const log = (player: string, stat: string, team: string, date: string, value: number): GameLog => ({
    sport: 'nba',
    player,
    playerKey: `${player.toLowerCase()}|${team}`,
    team,
    opponent: team === 'denver nuggets' ? 'Los Angeles Lakers' : 'Denver Nuggets',
    home: team === 'denver nuggets',
    date,
    stat,
    value,
    source: 'recorded',
  });
  const past = [20, 28, 22, 30, 25, 19, 27, 24, 26, 23].map((v, i) =>
    log('Ann Lee', 'points', 'denver nuggets', `2026-11-${String(10 + i).padStart(2, '0')}`, v),
  );
  return [
    ...past,
    log('Ann Lee', 'points', 'denver nuggets', '2026-11-22', 31),
    log('Bo Kim', 'rebounds', 'denver nuggets', '2026-11-22', 7),
    log('Cy Diaz', 'assists', 'los angeles lakers', '2026-11-22', 2),
  ];
}

function settlementSuite(label: string, open: () => Promise<{ db: Db; done(): Promise<void> }>) {
  describe(`settlement (${label})`, () => {
    let db: Db;
    let done: () => Promise<void>;
    beforeAll(async () => {
      ({ db, done } = await open());
    });
    afterAll(async () => {
      await done();
    });

    it('locks every prop of a game when it starts, and only then', async () => {
      const store = createSettlementStore(db);
      const writer = new PropLockWriter(store, createGameLogStore(db), SILENT);
      await createGameLogStore(db).append(logs().filter((l) => l.date < '2026-11-22'));
      const g1: GameSpec = { id: 'pp_1', startTime: START, props: [ann, bo, cy] };
      const g2: GameSpec = { id: 'pp_2', startTime: START, homeTeam: 'Utah Jazz', props: [di] };
      const g3: GameSpec = { id: 'pp_3', startTime: START, props: [ann] };
      await writer.write(
        board(1, [
          { spec: g1, state: 'pre' },
          { spec: g2, state: 'pre' },
          { spec: g3, state: 'pre' },
        ]),
        START_MS - 5 * MIN,
        true,
      );
      expect(
        await db.kysely
          .selectFrom('prop_locks' as never)
          .selectAll()
          .execute(),
      ).toEqual([]);
      // g1 starts; g2 starts (and is never finished); g3 leaves the board before its start.
      await writer.write(
        board(2, [
          { spec: g1, state: 'live' },
          { spec: g2, state: 'live' },
        ]),
        START_MS + MIN,
        true,
      );
      await writer.write(
        board(3, [
          { spec: g1, state: 'live' },
          { spec: g3, state: 'live' },
        ]),
        START_MS + 2 * MIN,
        true,
      );
      const rows = (await db.kysely
        .selectFrom('prop_locks' as never)
        .select(['game_id', 'player', 'book'] as never[])
        .execute()) as { game_id: string; player: string; book: string }[];
      expect(rows.map((r) => `${r.game_id} ${r.player} ${r.book}`).sort()).toEqual([
        'pp_1 Ann Lee prizepicks',
        'pp_1 Ann Lee underdog',
        'pp_1 Bo Kim prizepicks',
        'pp_1 Cy Diaz prizepicks',
        'pp_1 Cy Diaz underdog',
        'pp_2 Di Fox prizepicks',
        'pp_2 Di Fox underdog',
      ]);
    });

    it('settles over, under and push from the recorded finals; an unfinished game is not settled', async () => {
      const store = createSettlementStore(db);
      // Nothing is settled before the finals are recorded.
      expect(await store.settled({ sports: ['nba'] })).toEqual([]);
      await createGameLogStore(db).append(logs().filter((l) => l.date === '2026-11-22'));
      const settled = await store.settled({ sports: ['nba'] });
      const brief = settled.map((s) => [
        s.gameId,
        s.player,
        s.book,
        s.line,
        s.finalValue,
        s.result,
        s.pOver,
        s.pUnder,
        s.pPush,
        s.basis,
      ]);
      // Underdog's -115/-105 de-vigged (0.5108) read as a mean and blended with the logs (odds/model.ts: on the
      // simulated market the logs earn little beside a priced book), the same at its own line and PrizePicks'. Bo Kim: no prices and no logs: his line is the market's read,
      // and the integer line pushes. pp_2 never finished: Di Fox is locked, not settled.
      expect(brief).toEqual([
        ['pp_1', 'Ann Lee', 'prizepicks', 24.5, 31, 'over', 0.5106, 0.4894, undefined, 'prices'],
        ['pp_1', 'Ann Lee', 'underdog', 24.5, 31, 'over', 0.5106, 0.4894, undefined, 'prices'],
        ['pp_1', 'Bo Kim', 'prizepicks', 7, 7, 'push', 0.4007, 0.4658, 0.1335, 'distribution'],
        ['pp_1', 'Cy Diaz', 'prizepicks', 4.5, 2, 'under', 0.5108, 0.4892, undefined, 'prices'],
        ['pp_1', 'Cy Diaz', 'underdog', 4.5, 2, 'under', 0.5108, 0.4892, undefined, 'prices'],
      ]);
      expect(settled[0]).toMatchObject({
        date: '2026-11-22',
        startMs: START_MS,
        lockedAt: START_MS + MIN,
        homeTeam: 'Denver Nuggets',
      });
      // The market at lock: Underdog's -115/-105 at the lock's line, de-vigged unrounded; none on Bo Kim's unpriced 7.
      expect(settled.map((s) => s.marketPOver?.toFixed(6))).toEqual([
        '0.510834',
        '0.510834',
        undefined,
        '0.510834',
        '0.510834',
      ]);
      // Filters: only published chances, one stat, one basis, a day.
      expect((await store.settled({ sports: ['nba'], withProbability: true })).length).toBe(5);
      expect((await store.settled({ sports: ['nba'], stat: 'rebounds' })).map((s) => s.result)).toEqual(['push']);
      expect((await store.settled({ sports: ['nba'], basis: 'distribution' })).map((s) => s.player)).toEqual([
        'Bo Kim',
      ]);
      expect(await store.settled({ sports: ['nba'], date: '2026-11-21' })).toEqual([]);
      expect(await store.settled({ sports: ['mlb'] })).toEqual([]);
    });

    it('of two finals on one day, the one against the game’s teams settles it', async () => {
      const store = createSettlementStore(db);
      const writer = new PropLockWriter(store, createGameLogStore(db), SILENT);
      const spec: GameSpec = {
        id: 'pp_5',
        startTime: START,
        homeTeam: 'Utah Jazz',
        awayTeam: 'Boston Celtics',
        props: [di],
      };
      await writer.write(board(1, [{ spec, state: 'pre' }]), START_MS, true);
      await writer.write(board(2, [{ spec, state: 'final' }]), START_MS, true);
      const final = (opponent: string, value: number): GameLog => ({
        sport: 'nba',
        player: 'Di Fox',
        playerKey: 'di fox|utah jazz',
        team: 'Utah Jazz',
        opponent,
        home: true,
        date: '2026-11-21',
        stat: 'points',
        value,
        source: 'recorded',
      });
      await createGameLogStore(db).append([
        { ...final('Atlanta Hawks', 30), date: '2026-11-22' },
        { ...final('Boston Celtics', 10), date: '2026-11-22' },
      ]);
      const settled = await store.settled({ sports: ['nba'], stat: 'points', date: '2026-11-22' });
      expect(settled.filter((s) => s.gameId !== 'pp_1').map((s) => [s.gameId, s.book, s.finalValue, s.result])).toEqual(
        [
          ['pp_2', 'prizepicks', 30, 'over'],
          ['pp_2', 'underdog', 30, 'over'],
          ['pp_5', 'prizepicks', 10, 'under'],
          ['pp_5', 'underdog', 10, 'under'],
        ],
      );
    });

    it('a second writer (a restart, another leader) keeps the first lock', async () => {
      const store = createSettlementStore(db);
      const writer = new PropLockWriter(store, createGameLogStore(db), SILENT);
      const moved = { ...ann, line: 30.5 };
      await writer.write(
        board(1, [{ spec: { id: 'pp_1', startTime: START, props: [moved] }, state: 'pre' }]),
        START_MS,
        true,
      );
      await writer.write(
        board(2, [{ spec: { id: 'pp_1', startTime: START, props: [moved] }, state: 'live' }]),
        START_MS,
        true,
      );
      const again = await createSettlementStore(db).settled({ sports: ['nba'], stat: 'points' });
      expect(again.filter((s) => s.gameId === 'pp_1').map((s) => [s.book, s.line, s.result])).toEqual([
        ['prizepicks', 24.5, 'over'],
        ['underdog', 24.5, 'over'],
      ]);
    });

    it('a replay that does not record only notes starts', async () => {
      const writer = new PropLockWriter(createSettlementStore(db), createGameLogStore(db), SILENT);
      const spec: GameSpec = { id: 'pp_9', startTime: START, props: [ann] };
      await writer.write(board(1, [{ spec, state: 'pre' }]), START_MS, false);
      await writer.write(board(2, [{ spec, state: 'live' }]), START_MS, false);
      await writer.write(board(3, [{ spec, state: 'live' }]), START_MS, true);
      const rows = await db.kysely
        .selectFrom('prop_locks' as never)
        .selectAll()
        .where('game_id' as never, '=', 'pp_9' as never)
        .execute();
      expect(rows).toEqual([]);
    });
  });
}

it('a final value against a line', () => {
  expect([resultOf(25, 24.5), resultOf(24, 24.5), resultOf(7, 7)]).toEqual(['over', 'under', 'push']);
});

settlementSuite('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'propsfeed-settlement-'));
  const db = await openDb({ dataDir: dir });
  return {
    db,
    async done() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

const pgAvailable = await enginesAvailable({ postgres: true });
describe.skipIf(!pgAvailable)('postgres', () => {
  let schema: TestSchema;
  settlementSuite('postgres', async () => {
    schema = await createTestSchema('settle');
    const db = await openDb({ databaseUrl: schema.url, dataDir: '' });
    return {
      db,
      async done() {
        await db.close();
        await schema.drop();
      },
    };
  });
});
