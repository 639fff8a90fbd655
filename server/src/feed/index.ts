/**
 * The feed the API serves: books polled (the real books, or the simulator on loopback, as
 * the runtime chose), merged into boards, written to line history and game logs. Also
 * `@propsfeed/server/feed` (workspace only), for the benchmarks and backtests: the feed
 * without a poller (the core, the merge, the backfill's replay of the simulated day and the
 * past games it stores).
 */
import type { Book } from '@propsfeed/contract';
import { boardSourceOf, type RunningFeed } from '../board/types';
import { ADAPTERS } from '../books';
import { createGameLogStore } from '../history/gameLogs';
import { createLineHistoryStore } from '../history/lineHistory';
import { createSettlementStore } from '../history/settlement';
import { servedCoefficients } from '../odds/coefficients';
import type { Db } from '../store/db';
import { type SimServer, SimWorld, startSimBooks } from '../upstream/sim';
import { type BackfillProgress, backfill } from './backfill';
import { FeedCore } from './core';
import { type FeedLogger, SILENT_LOGGER } from './logger';
import { type Poller, startPolling } from './poller';
import { HISTORY_LOOKBACK_MS, restoreFromHistory } from './restore';

export { pastGameLogs } from '../upstream/sim';
export { backfill } from './backfill';
export { FeedCore } from './core';
export { SILENT_LOGGER } from './logger';
export { BoardMerger, type BookView } from './merge';

/** Where the lines come from: the real books at their URLs, or the simulated world of a seed, served on loopback. */
export type Upstream =
  | { kind: 'books'; books: readonly Book[]; urls: Record<Book, string> }
  | { kind: 'simulator'; seed: number };

export interface StartIngestOptions {
  upstream: Upstream;
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
  /** The simulator's backfill reports its progress here (`props serve` shows it). */
  onBackfill?: (progress: BackfillProgress) => void;
  /**
   * Boards are numbered above this: an ingest worker started again after one died goes on
   * from the numbers its predecessor's boards were served with (views are cached by version).
   */
  versionsAfter?: number;
}

const MIN = 60_000;

export async function startIngest(opts: StartIngestOptions): Promise<RunningFeed> {
  const now = opts.now ?? Date.now;
  const logger = opts.logger ?? SILENT_LOGGER;
  const { upstream } = opts;
  const simulated = upstream.kind === 'simulator';
  const books: readonly Book[] = upstream.kind === 'books' ? upstream.books : ['prizepicks', 'underdog'];
  const history = createLineHistoryStore(opts.db);
  const gameLogs = createGameLogStore(opts.db);
  const locks = createSettlementStore(opts.db);
  const coefficients = servedCoefficients(!simulated);
  const core = new FeedCore({
    books,
    history,
    gameLogs,
    locks,
    coefficients,
    logger,
    retainMs: opts.retainMs ?? 30 * MIN,
    now,
    versionsAfter: opts.versionsAfter,
  });
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
  let urls: Record<Book, string>;
  if (upstream.kind === 'books') urls = upstream.urls;
  else {
    const { seed } = upstream;
    const started = now();
    if (!opts.resume) {
      const storedUntilMs = await history.lastRecordedAt();
      const result = await backfill({
        core,
        // The world the backfill replays; the books' own thread plays another of the same seed.
        world: new SimWorld(seed),
        now: started,
        gameLogs,
        storedUntilMs,
        onProgress: opts.onBackfill,
      });
      logger.info({ ...result, ms: now() - started, seed }, 'simulated books backfilled');
    }
    sim = await startSimBooks({ seed, now, logger });
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
    ...boardSourceOf(core),
    async stop() {
      await poller.stop();
      await sim?.close();
    },
  };
}
