/**
 * The backfill: from the first second, the board, the delayed view, line history and every
 * player's game logs have data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIM_SPORTS, SimWorld } from '@propsfeed/sim';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playerKey } from '../../src/books/names';
import { backfill } from '../../src/feed/backfill';
import { FeedCore } from '../../src/feed/core';
import { createGameLogStore } from '../../src/history/gameLogs';
import { createLineHistoryStore } from '../../src/history/lineHistory';
import { type Db, openDb } from '../../src/store/db';
import { pastGameLogs } from '../../src/upstream/sim';
import { REPEATED_POINTS_SQL } from '../helpers/history';

const NOW = Date.parse('2026-11-22T01:00:00Z');
const MIN = 60_000;

describe('simulator backfill', () => {
  let dir: string;
  let db: Db;
  let core: FeedCore;
  let result: { steps: number; logs: number };
  const world = new SimWorld(3);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propsfeed-backfill-'));
    db = await openDb({ dataDir: dir });
    const silent = { info() {}, warn() {}, error() {} };
    core = new FeedCore({
      books: ['prizepicks', 'underdog'],
      history: createLineHistoryStore(db),
      gameLogs: createGameLogStore(db),
      logger: silent,
      retainMs: 30 * MIN,
      now: () => NOW,
    });
    // An hour back keeps the test quick; the default replays the 12 hours since lines opened.
    result = await backfill({ core, world, now: NOW, fromMs: NOW - 60 * MIN, gameLogs: createGameLogStore(db) });
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves a current board and a delayed one that is never fresher than asked', () => {
    // Every 5 minutes over the last 20 (the delayed view's window); 45-minute steps before.
    expect(result.steps).toBe(5);
    expect(core.ready()).toBe(true);
    const board = core.current();
    expect(board.fetchedAt).toBe(NOW);
    expect(board.games.some((g) => g.live)).toBe(true);
    // Both books post every game until it ends; final games stay on Underdog only.
    for (const g of board.games) expect(g.aliases.length, g.id).toBe(g.state === 'final' ? 0 : 1);
    const delayed = core.at(NOW - 10 * MIN);
    expect(delayed.fetchedAt).toBe(NOW - 10 * MIN);
    expect(delayed.games.length).toBeGreaterThan(0);
    expect(core.at(NOW - 7 * MIN)).toBe(delayed);
    expect(delayed).not.toBe(board);
  });

  it('writes line history that the history reads find, by either book id', async () => {
    const history = createLineHistoryStore(db);
    const game = core.current().games.find((g) => !g.live && g.props.some((p) => p.bookCount === 2));
    const prop = game?.props.find((p) => p.bookCount === 2);
    if (!game || !prop) throw new Error('no two-book prop');
    const h = await history.propHistory({ gameId: game.aliases[0] ?? '', player: prop.player, stat: prop.stat });
    expect(h?.gameId).toBe(game.id);
    expect(h?.books.map((b) => b.source)).toEqual(['prizepicks', 'underdog']);
    expect(h?.books[0]?.current.line).toBe(prop.books[0]?.line);
    const movers = await history.movers({ sport: 'nba' });
    expect(movers.length).toBeGreaterThan(50);
  });

  it('gives every player at least 10 past games per posted stat, stored once', async () => {
    const logs = pastGameLogs(world, NOW);
    const perPlayerStat = new Map<string, number>();
    for (const l of logs)
      perPlayerStat.set(
        `${l.sport}|${l.playerKey}|${l.stat}`,
        (perPlayerStat.get(`${l.sport}|${l.playerKey}|${l.stat}`) ?? 0) + 1,
      );
    for (const sport of SIM_SPORTS) {
      for (const team of sport.teams) {
        for (const player of world.roster(sport, team)) {
          for (const stat of player.slot.posted) {
            const n = perPlayerStat.get(`${sport.id}|${playerKey(player.name, team)}|${stat}`);
            expect(n, `${sport.id} ${player.name} ${stat}`).toBeGreaterThanOrEqual(10);
          }
        }
      }
    }
    expect(Math.min(...perPlayerStat.values())).toBeGreaterThanOrEqual(10);
    expect(result.logs).toBeGreaterThan(10_000);
    // A second backfill on the same store adds no past game twice.
    expect(await createGameLogStore(db).append(logs)).toBe(0);
  });

  it('on a restart on the same store, writes only what moved since the stored history ends', async () => {
    const history = createLineHistoryStore(db);
    const rows = async (untilMs = Number.MAX_SAFE_INTEGER) =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from line_history where at <= ${untilMs}`.execute(db.kysely))
          .rows[0]?.n,
      );
    const before = await rows();
    const storedUntilMs = await history.lastRecordedAt();
    if (storedUntilMs === undefined) throw new Error('nothing stored');
    expect(storedUntilMs).toBeLessThanOrEqual(NOW);
    const later = NOW + 7 * MIN;
    const restarted = new FeedCore({
      books: ['prizepicks', 'underdog'],
      history,
      logger: { info() {}, warn() {}, error() {} },
      retainMs: 30 * MIN,
      now: () => later,
    });
    await backfill({ core: restarted, world, now: later, fromMs: later - 60 * MIN, storedUntilMs });
    // What moved since is added; nothing up to the stored end is written again.
    expect((await rows()) - before).toBeGreaterThan(0);
    expect(await rows(storedUntilMs)).toBe(before);
    // No line is stored twice in a row at one price (a replay written again would be).
    const repeats = await sql<{ n: number }>`${sql.raw(REPEATED_POINTS_SQL)}`.execute(db.kysely);
    expect(Number(repeats.rows[0]?.n)).toBe(0);
    // The replay still rebuilt the boards the delayed view reads.
    expect(restarted.at(later - 10 * MIN).games.length).toBeGreaterThan(0);
  });
});
