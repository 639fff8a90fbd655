/**
 * The default mode end to end: with PROPS_BOOKS unset, startFeed backfills the simulated
 * day, serves both books from the simulator on loopback and polls them with the real adapters.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPORT_IDS } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningFeed } from '../../src/board/types';
import { loadConfig } from '../../src/config';
import { createSettlementStore } from '../../src/history/settlement';
import { EntryBook } from '../../src/odds/entries';
import { scoreForecasts } from '../../src/odds/record';
import { startFeed } from '../../src/runtime';
import { type Db, openDb } from '../../src/store/db';

const NOW = Date.parse('2026-11-22T01:00:00Z');
const MIN = 60_000;

describe('startFeed on the simulator (the default)', () => {
  let dir: string;
  let db: Db;
  let feed: RunningFeed;
  const started = Date.now();
  // The injected clock runs from NOW at real speed, so the simulated games move on.
  const now = () => NOW + (Date.now() - started);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propsfeed-simfeed-'));
    db = await openDb({ dataDir: dir });
    feed = await startFeed({ config: loadConfig({ PROPS_SIM_SEED: '5' }), db, now, pollMs: 50 });
  }, 180_000);
  afterAll(async () => {
    await feed?.stop();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is ready with a full board, both books healthy, from the first second', () => {
    expect(feed.ready()).toBe(true);
    const board = feed.current();
    expect(new Set(board.games.map((g) => g.sport))).toEqual(new Set(SPORT_IDS));
    expect(board.games[0]?.live).toBe(true);
    expect(feed.health().map((h) => [h.source, h.errorCount, h.skippedItems])).toEqual([
      ['prizepicks', 0, 0],
      ['underdog', 0, 0],
    ]);
    const delayed = feed.at(now() - 10 * MIN);
    expect(delayed.games.length).toBeGreaterThan(0);
    expect(delayed.fetchedAt).toBeLessThanOrEqual(now() - 10 * MIN);
  });

  it('polls the simulator over loopback and publishes new boards to subscribers', async () => {
    const seen: number[] = [];
    const unsubscribe = feed.subscribe((b) => seen.push(b.version));
    const before = feed.current().version;
    await vi.waitFor(() => expect(feed.current().version).toBeGreaterThan(before), { timeout: 30_000 });
    unsubscribe();
    expect(seen.length).toBeGreaterThan(0);
    expect(feed.health()[0]?.fetchedAt).toBeGreaterThan(NOW);
  });

  it("locks the day's games as they started and settles those that finished: a non-empty track record", async () => {
    const settled = await createSettlementStore(db).settled({ sports: [...SPORT_IDS], withProbability: true });
    expect(settled.length).toBeGreaterThan(500);
    // Every lock was taken before its game's final value existed, and from the pre-game line.
    expect(settled.every((s) => s.lockedAt >= s.startMs && s.date < '2026-11-23')).toBe(true);
    expect(new Set(settled.map((s) => s.result))).toEqual(new Set(['over', 'under', 'push']));
    const record = scoreForecasts(settled, new EntryBook(), '2026-11-22');
    expect(record.count + record.pushes).toBe(settled.length);
    expect(record.calibration.filter((b) => b.count > 0).length).toBeGreaterThanOrEqual(5);
    expect(record.brier).toBeGreaterThan(0.1);
    expect(record.brier).toBeLessThan(0.3);
  });
});
