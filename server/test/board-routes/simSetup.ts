/**
 * The board routes over the seeded simulator: the real adapters and feed replay the last
 * 40 minutes of the simulated day into line history, and every player's past games into the
 * game logs, in a fresh SQLite store. Deterministic: same seed, same clock, same answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimWorld } from '@propsfeed/sim';
import { backfill } from '../../src/feed/backfill';
import { FeedCore } from '../../src/feed/core';
import { createGameLogStore } from '../../src/history/gameLogs';
import { createLineHistoryStore } from '../../src/history/lineHistory';
import { openBoardData } from '../../src/runtime';
import { openDb } from '../../src/store/db';
import { systemClock } from '../../src/webhooks/clock';
import type { WebhookOptions } from '../../src/webhooks/service';
import { buildTestApp, offlineResolver, type TestApp } from '../helpers/app';

export const SIM_NOW = Date.parse('2026-11-22T01:00:00.000Z');
export const SIM_SEED = 20261122;
const MIN = 60_000;
const SILENT = { info() {}, warn() {}, error() {} };

/**
 * Webhooks on the simulated clock, to the example's host (a documentation name resolved here,
 * never looked up) through a sender that answers 200 at once: nothing leaves the machine.
 */
const SIM_WEBHOOKS: Partial<WebhookOptions> = {
  clock: systemClock(() => SIM_NOW),
  targets: { resolve: offlineResolver({ 'hooks.example.com': '93.184.215.14' }) },
  sender: async () => ({ status: 200, latencyMs: 42, error: null }),
};

export interface SimApp extends TestApp {
  core: FeedCore;
}

export async function buildSimApp(): Promise<SimApp> {
  const dir = mkdtempSync(join(tmpdir(), 'propsfeed-board-sim-'));
  const db = await openDb({ dataDir: dir });
  const gameLogs = createGameLogStore(db);
  const core = new FeedCore({
    books: ['prizepicks', 'underdog'],
    history: createLineHistoryStore(db),
    gameLogs,
    logger: SILENT,
    retainMs: 30 * MIN,
    now: () => SIM_NOW,
  });
  await backfill({
    core,
    world: new SimWorld(SIM_SEED),
    now: SIM_NOW,
    fromMs: SIM_NOW - 40 * MIN,
    coarseStepMs: 20 * MIN,
    fineStepMs: 20 * MIN,
    gameLogs,
  });
  const boardData = await openBoardData(db, core, () => {});
  const app = await buildTestApp({
    source: core,
    projections: boardData.gameLogs,
    boardData,
    now: () => SIM_NOW,
    webhooks: SIM_WEBHOOKS,
  });
  return {
    ...app,
    core,
    async close(opts) {
      boardData.stop();
      await app.close(opts);
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
