/**
 * Priced once means one truth (#40): replaying the seeded simulator through each game's start,
 * the chances the scan route served for a prop on its game's last pre-game board are exactly
 * the chances its lock stores, and the track record's reader settles that lock with the same
 * numbers. The lock writer (the feed) and the views (the API) share no objects here: the views
 * read the game logs through their own index over the store, as a separate thread would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FairProbability, ScanResponseSchema, type ScanRow, type SportId } from '@propsfeed/contract';
import { SIM_SPORTS, SimWorld } from '@propsfeed/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardGame } from '../../src/board/types';
import { backfill } from '../../src/feed/backfill';
import { FeedCore } from '../../src/feed/core';
import { createGameLogStore } from '../../src/history/gameLogs';
import { createLineHistoryStore } from '../../src/history/lineHistory';
import { createSettlementStore } from '../../src/history/settlement';
import { servedCoefficients } from '../../src/odds/coefficients';
import { openBoardData } from '../../src/runtime';
import { type Db, openDb } from '../../src/store/db';
import { buildTestApp, type TestApp } from '../helpers/app';
import { pollSim } from '../helpers/simFeed';

const SEED = 20261122;
/** The replay starts here; every game starting within the next WINDOW_MS is followed through its start. */
const FROM = Date.parse('2026-11-22T02:30:00.000Z');
const MIN = 60_000;
const WINDOW_MS = 65 * MIN;
const SILENT = { info() {}, warn() {}, error() {} };

/** A prop's chances at one book, as a scan row and a lock both carry them. */
type Chance = Pick<FairProbability, 'line' | 'pOver' | 'pUnder' | 'basis'> & { pPush: number | null };
const chanceOf = (c: Pick<FairProbability, 'line' | 'pOver' | 'pUnder' | 'pPush' | 'basis'>): Chance => ({
  line: c.line,
  pOver: c.pOver,
  pUnder: c.pUnder,
  pPush: c.pPush ?? null,
  basis: c.basis,
});
const propId = (player: string, stat: string, book: string) => `${player}|${stat}|${book}`;

let dir: string;
let db: Db;
let app: TestApp;
let stopBoardData: () => void;
/** Each followed game as its last pre-game board showed it. */
const lastPreGame = new Map<string, BoardGame>();
/** Each followed game's scan chances on that board, by player, stat and book. */
const lastPreScan = new Map<string, Map<string, Chance>>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propsfeed-one-truth-'));
  db = await openDb({ dataDir: dir });
  const gameLogs = createGameLogStore(db);
  let clock = FROM;
  const world = new SimWorld(SEED);
  const core = new FeedCore({
    books: ['prizepicks', 'underdog'],
    history: createLineHistoryStore(db),
    gameLogs,
    locks: createSettlementStore(db),
    coefficients: servedCoefficients(false),
    logger: SILENT,
    retainMs: 30 * MIN,
    now: () => clock,
  });
  await backfill({
    core,
    world,
    now: FROM,
    fromMs: FROM - 40 * MIN,
    coarseStepMs: 20 * MIN,
    fineStepMs: 20 * MIN,
    gameLogs,
  });
  const followed = core.current().games.filter((g) => g.state === 'pre' && g.startMs < FROM + WINDOW_MS);
  const boardData = await openBoardData(db, core, () => {});
  stopBoardData = () => boardData.stop();
  app = await buildTestApp({
    source: core,
    projections: boardData.gameLogs,
    boardData,
    now: () => clock,
    streamLog: false,
    webhooks: false,
  });
  const key = await app.createKey({ tier: 'enterprise' });
  const sports = [...new Set(followed.map((g) => g.sport))];

  // The board a second before and after each start (the closing lines, the lock), and a coarse grid between.
  const times = new Set<number>();
  for (let t = FROM + 5 * MIN; t < FROM + WINDOW_MS; t += 15 * MIN) times.add(t);
  for (const g of followed) {
    times.add(g.startMs - 1_000);
    times.add(g.startMs + 1_000);
  }
  for (const t of [...times].sort((a, b) => a - b)) {
    clock = t;
    await pollSim(core, world, t);
    // What the index's interval check would have caught up with by now (the views' own copy of the logs).
    await boardData.gameLogs.refresh();
    const board = core.current();
    const pre = followed.flatMap((f) => {
      const g = board.gameById.get(f.id);
      return g?.state === 'pre' ? [g] : [];
    });
    if (pre.length === 0) continue;
    const rows: ScanRow[] = [];
    for (const sport of sports) rows.push(...(await scan(sport, key)));
    for (const g of pre) {
      lastPreGame.set(g.id, g);
      const chances = new Map<string, Chance>();
      for (const row of rows) {
        if (row.eventId !== g.id) continue;
        for (const p of row.probabilities ?? []) chances.set(propId(row.player, row.stat, p.source), chanceOf(p));
      }
      lastPreScan.set(g.id, chances);
    }
  }
  // Each game's first final board records its finals, which settle its locks for the track record.
  const ends = new Set(followed.map((g) => g.startMs + durationOf(g.sport) + 1_000));
  for (const t of [...ends].sort((a, b) => a - b)) {
    clock = t;
    await pollSim(core, world, t);
  }
}, 300_000);

function durationOf(sport: SportId): number {
  const simSport = SIM_SPORTS.find((s) => s.id === sport);
  if (!simSport) throw new Error(`${sport} is not a simulated sport`);
  return simSport.durationMin * MIN;
}

afterAll(async () => {
  stopBoardData?.();
  await app?.close();
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every pre-game row of a sport, as the scan route serves it. */
async function scan(sport: SportId, key: string): Promise<ScanRow[]> {
  const res = await app.get(`/api/v1/props?sport=${sport}&state=pre&limit=5000`, key);
  expect(res.statusCode).toBe(200);
  const body = ScanResponseSchema.parse(res.json());
  expect(body.count).toBe(body.total);
  return body.rows;
}

/** The chances stored at lock for a game's props, by player, stat and book (the store has no reader for unsettled locks). */
async function lockedChances(gameId: string): Promise<Map<string, Chance>> {
  const rows = (await db.kysely
    .selectFrom('prop_locks' as never)
    .select(['player', 'stat', 'book', 'line', 'p_over', 'p_under', 'p_push', 'basis'] as never[])
    .where('game_id' as never, '=', gameId as never)
    .execute()) as {
    player: string;
    stat: string;
    book: string;
    line: number;
    p_over: number | null;
    p_under: number | null;
    p_push: number | null;
    basis: FairProbability['basis'];
  }[];
  const locked = new Map<string, Chance>();
  for (const r of rows) {
    if (r.p_over === null || r.p_under === null) continue;
    locked.set(propId(r.player, r.stat, r.book), {
      line: Number(r.line),
      pOver: Number(r.p_over),
      pUnder: Number(r.p_under),
      pPush: r.p_push === null ? null : Number(r.p_push),
      basis: r.basis,
    });
  }
  return locked;
}

describe('one truth: the scan before the start is the lock', () => {
  it('follows games of several sports through their start', () => {
    expect(lastPreGame.size).toBeGreaterThanOrEqual(8);
    expect(new Set([...lastPreGame.values()].map((g) => g.sport)).size).toBeGreaterThanOrEqual(4);
  });

  it("stores, for every prop of each game, exactly the chances the scan served on the game's last pre-game board", async () => {
    let compared = 0;
    for (const [gameId, game] of lastPreGame) {
      const scanned = lastPreScan.get(gameId) ?? new Map();
      const locked = await lockedChances(gameId);
      // Every book's quote of every prop of the game was priced on the scan and locked.
      const quotes = game.props.flatMap((p) => p.books.map((b) => propId(p.player, p.stat, b.source)));
      expect([...scanned.keys()].sort(), gameId).toEqual([...quotes].sort());
      expect([...locked.keys()].sort(), gameId).toEqual([...quotes].sort());
      for (const [id, chance] of scanned) expect(locked.get(id), `${gameId} ${id}`).toEqual(chance);
      compared += scanned.size;
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('settles those locks for the track record with the same chances', async () => {
    // What GET /props/track-record scores: the settled locks with a published chance (queries/trackRecord.ts).
    const settled = await createSettlementStore(db).settled({
      sports: [...new Set([...lastPreGame.values()].map((g) => g.sport))],
      withProbability: true,
    });
    let scored = 0;
    for (const [gameId, scanned] of lastPreScan) {
      const ofGame = settled.filter((l) => l.gameId === gameId);
      // Each lock is settled at most once; one whose player has no recorded final is not settled.
      expect(new Set(ofGame.map((l) => propId(l.player, l.stat, l.book))).size, gameId).toBe(ofGame.length);
      expect(ofGame.length, gameId).toBeGreaterThan(scanned.size / 2);
      for (const l of ofGame) {
        const chance = chanceOf({ ...l, pOver: l.pOver as number, pUnder: l.pUnder as number });
        expect(chance, `${gameId} ${l.player} ${l.stat} ${l.book}`).toEqual(
          scanned.get(propId(l.player, l.stat, l.book)),
        );
      }
      scored += ofGame.length;
    }
    expect(scored).toBeGreaterThan(100);
  });
});
