/**
 * After a restart on the real books, the delayed view is rebuilt from line history: boards
 * as the books stood then, never fresher, from the first second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedCore } from '../../src/feed/core';
import { RESTORE_STEP_MS, restoreFromHistory } from '../../src/feed/restore';
import { createLineHistoryStore, type HistoryGame, type LineChange } from '../../src/history/lineHistory';
import { type Db, openDb } from '../../src/store/db';

const NOW = Date.parse('2026-11-22T01:00:00Z');
const MIN = 60_000;
const BOOKS = ['prizepicks', 'underdog'] as const;
const newCore = () =>
  new FeedCore({ books: BOOKS, logger: { info() {}, warn() {}, error() {} }, retainMs: 30 * MIN, now: () => NOW });

const game = (id: string, book: 'prizepicks' | 'underdog', startMs: number): HistoryGame => ({
  id,
  mergedId: 'pp_1',
  book,
  sport: 'nba',
  homeTeam: 'Boston Celtics',
  awayTeam: 'Miami Heat',
  startMs,
});

const point = (book: 'prizepicks' | 'underdog', gameId: string, player: string, at: number, line: number | null) =>
  ({
    book,
    sport: 'nba',
    gameId,
    playerKey: `${player.toLowerCase()}|boston celtics`,
    player,
    team: 'Boston Celtics',
    stat: 'points',
    at,
    line,
    ...(line === null ? {} : { overOdds: -110, underOdds: -110 }),
  }) satisfies LineChange;

describe('delayed boards rebuilt from line history', () => {
  let dir: string;
  let db: Db;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propsfeed-restore-'));
    db = await openDb({ dataDir: dir });
    await createLineHistoryStore(db).record({
      games: [
        game('pp_1', 'prizepicks', NOW + 60 * MIN),
        game('ud_1', 'underdog', NOW + 60 * MIN),
        game('ud_0', 'underdog', NOW - 20 * 60 * MIN),
      ],
      changes: [
        point('prizepicks', 'pp_1', 'Tatum', NOW - 3 * 60 * MIN, 27.5),
        point('underdog', 'ud_1', 'Tatum', NOW - 2 * 60 * MIN, 28.5),
        point('prizepicks', 'pp_1', 'Brown', NOW - 60 * MIN, 22.5),
        // Moves 5 minutes ago: the delayed view still has the old line.
        point('prizepicks', 'pp_1', 'Tatum', NOW - 5 * MIN, 29.5),
        // Pulled before the window: on no board.
        point('prizepicks', 'pp_1', 'Brown', NOW - 30 * MIN, null),
        // A game long over whose lines were never pulled in history: on no board.
        point('underdog', 'ud_0', 'Horford', NOW - 22 * 60 * MIN, 8.5),
        point('underdog', 'ud_1', 'White', NOW - 2 * MIN, 15.5),
      ],
    });
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the board as it stood, never fresher, up to the newest stored point', async () => {
    const core = newCore();
    const { boards } = await restoreFromHistory(core, createLineHistoryStore(db), BOOKS, NOW);
    expect(boards).toBeGreaterThan(20);

    const delayed = core.at(NOW - 10 * MIN);
    expect(delayed.fetchedAt).toBeLessThanOrEqual(NOW - 10 * MIN);
    expect(delayed.fetchedAt).toBeGreaterThan(NOW - 10 * MIN - RESTORE_STEP_MS);
    const lines = (b: typeof delayed) =>
      b.games.flatMap((g) => g.props.map((p) => [g.id, p.player, ...p.books.map((q) => `${q.source} ${q.line}`)]));
    expect(delayed.games.map((g) => [g.id, g.aliases, g.live])).toEqual([['pp_1', ['ud_1'], false]]);
    expect(lines(delayed)).toEqual([['pp_1', 'Tatum', 'prizepicks 27.5', 'underdog 28.5']]);
    // The newest restored board has the later moves; the feed is not ready until it polls.
    expect(lines(core.current())).toEqual([
      ['pp_1', 'Tatum', 'prizepicks 29.5', 'underdog 28.5'],
      ['pp_1', 'White', 'underdog 15.5'],
    ]);
    expect(core.current().fetchedAt).toBeLessThanOrEqual(NOW - 2 * MIN);
    expect(core.ready()).toBe(false);
  });

  it('restores nothing when history ends before the window (the server was down longer)', async () => {
    const core = newCore();
    const later = NOW + 60 * MIN;
    expect((await restoreFromHistory(core, createLineHistoryStore(db), BOOKS, later)).boards).toBe(0);
    expect(core.at(later - 10 * MIN).games).toEqual([]);
  });
});
