/**
 * The feed the API serves: books polled (the simulator on loopback by default, the real
 * books with PROPS_BOOKS), merged into boards, written to line history and game logs.
 */
import type { Book } from '@propsfeed/contract';
import { ADAPTERS } from '../books';
import type { Config } from '../config';
import { createGameLogStore } from '../history/gameLogs';
import { createLineHistoryStore } from '../history/lineHistory';
import { backfill } from './backfill';
import { type SimServer, startSimServer } from '../sim/server';
import { SimWorld } from '../sim/world';
import type { Db } from '../store/db';
import { FeedCore, type FeedLogger } from './core';
import { type Poller, startPolling } from './poller';
import { HISTORY_LOOKBACK_MS, restoreFromHistory } from './restore';
import type { BoardSource } from './types';

export interface Feed extends BoardSource {
  stop(): Promise<void>;
}

export interface StartFeedOptions {
  config: Config;
  db: Db;
  now?: () => number;
  logger?: FeedLogger;
  /** Poll interval per book (default: 5 s on the simulator, 20 s on the real books). */
  pollMs?: number;
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
  /** How long past boards stay in memory for `at()` (default 30 minutes). */
  retainMs?: number;
  /** Injected for tests (msw intercepts global fetch anyway). */
  fetch?: typeof fetch;
  /**
   * Another replica ingested before this one (shared engines): the day is already stored, so
   * the simulator's backfill is skipped, and line tracking resumes from stored history
   * (lines changed in the last HISTORY_LOOKBACK_MS) instead of recording every line again, as
   * it also does when the real books' feed restarts on its store.
   */
  resume?: boolean;
}

const SILENT: FeedLogger = { info() {}, warn() {}, error() {} };
const MIN = 60_000;

export async function startFeed(opts: StartFeedOptions): Promise<Feed> {
  const now = opts.now ?? Date.now;
  const logger = opts.logger ?? SILENT;
  const simulated = opts.config.PROPS_BOOKS.length === 0;
  const books: Book[] = simulated ? ['prizepicks', 'underdog'] : opts.config.PROPS_BOOKS;
  const history = createLineHistoryStore(opts.db);
  const gameLogs = createGameLogStore(opts.db);
  const core = new FeedCore({ books, history, gameLogs, logger, retainMs: opts.retainMs ?? 30 * MIN, now });
  // Line tracking starts from what history holds: a leader taking over has its delayed boards
  // from the replicated stream; the real books on a restart rebuild them from history too;
  // the simulator's replay below rebuilds both.
  if (opts.resume) {
    core.resumeFrom(await history.latestPoints(now() - HISTORY_LOOKBACK_MS));
  } else if (!simulated) {
    const restored = await restoreFromHistory(core, history, books, now());
    if (restored.lines > 0) logger.info(restored, 'delayed view and line tracking restored from line history');
  }

  let sim: SimServer | undefined;
  let urls: Record<Book, string> = {
    prizepicks: opts.config.PROPS_PRIZEPICKS_URL,
    underdog: opts.config.PROPS_UNDERDOG_URL,
  };
  if (simulated) {
    const world = new SimWorld(opts.config.PROPS_SIM_SEED);
    const started = now();
    if (!opts.resume) {
      const storedUntilMs = await history.lastRecordedAt();
      const result = await backfill({ core, world, now: started, gameLogs, storedUntilMs });
      logger.info({ ...result, ms: now() - started, seed: world.seed }, 'simulated books backfilled');
    }
    sim = await startSimServer(world, now);
    urls = { prizepicks: sim.prizepicksUrl, underdog: sim.underdogUrl };
  }
  logger.info({ books, simulated, urls: simulated ? undefined : urls }, 'feed polling');

  const poller: Poller = startPolling({
    core,
    books: books.map((book) => ({ adapter: ADAPTERS[book], baseUrl: urls[book] })),
    pollMs: opts.pollMs ?? (simulated ? 5_000 : 20_000),
    timeoutMs: opts.timeoutMs ?? 10_000,
    maxBackoffMs: 5 * MIN,
    now,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });

  return {
    current: () => core.current(),
    at: (ms) => core.at(ms),
    subscribe: (listener) => core.subscribe(listener),
    health: () => core.health(),
    ready: () => core.ready(),
    async stop() {
      await poller.stop();
      await sim?.close();
    },
  };
}

export { createGameLogStore } from '../history/gameLogs';
export { createLineHistoryStore } from '../history/lineHistory';
