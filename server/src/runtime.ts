/**
 * The one place that decides, from parsed config, which implementations run: the store
 * (SQLite or PostgreSQL), the limiter (in-process or Redis), the key cache and its change
 * notices, and the feed (simulator or real books, ingested in a worker thread whose change log
 * this thread applies; on Redis, the cluster feed whose leader runs that worker).
 */

import type { Redis } from 'ioredis';
import type { Board, BoardSource, ProjectionSource, RunningFeed } from './board/types';
import { EMPTY_BOARD } from './board/types';
import { startClusterFeed } from './cluster/feed';
import { startIngestThread } from './cluster/ingestThread';
import { openKeyNotices } from './cluster/keyNotices';
import { LeaderLease } from './cluster/leader';
import type { Config } from './config';
import { ApiError } from './errors/apiError';
import { type StartIngestOptions, startIngest, type Upstream } from './feed';
import type { FeedLogger } from './feed/logger';
import { createGameLogStore } from './history/gameLogs';
import { createLineHistoryStore } from './history/lineHistory';
import { createSettlementStore, type SettlementReader } from './history/settlement';
import type { LineHistoryReader } from './history/types';
import { KeyCache } from './keys/cache';
import { MemoryLimiter } from './limits/memory';
import { RedisLimiter } from './limits/redis';
import type { Limiter } from './limits/types';
import { servedCoefficients } from './odds/coefficients';
import { EntryBook } from './odds/entries';
import type { Coefficients } from './odds/model';
import { entryTablesOf } from './odds/tables';
import type { BoardData } from './queries/deps';
import { SimWorld } from './sim/world';
import { GameLogIndex, gameLogCount } from './stats/gameLogIndex';
import { type Db, openDb } from './store/db';
import { createKyselyStore, type StoreSchema } from './store/kyselyStore';
import { schedulePruning } from './store/pruning';
import { connectRedis } from './store/redis';
import type { Store } from './store/types';
import { StreamLog } from './stream/log';
import type { RenderedChange } from './stream/rendered';
import { RedisStreamSlots, type StreamSlots } from './stream/slots';
import { RedisStreamTokens, type StreamTokens } from './stream/tokens';
import { serially } from './util/serially';
import { OpeningLines } from './views/openingLines';
import type { WebhookClock } from './webhooks/clock';
import type { Leadership, WebhookOptions } from './webhooks/service';
import { createWebhookStore } from './webhooks/store';

export interface Runtime {
  config: Config;
  store: Store;
  limiter: Limiter;
  keys: KeyCache;
  feed: RunningFeed;
  projections?: ProjectionSource;
  boardData: BoardData;
  /** The pick'em payout tables: the catalog's, or PROPS_ENTRIES_FILE / PROPS_ENTRIES. */
  entries: EntryBook;
  /** The model's coefficients served: the real ones when the books are real (PROPS_BOOKS), else the simulator's. */
  coefficients: Coefficients;
  /** The stored stream event log (PROPS_STREAM_LOG_HOURS; absent at 0), read here and written by the ingest worker. */
  streamLog?: StreamLog;
  /** The ingest worker's rendering of each change's events, for the streams (embedded: the board comes from that worker). */
  renderedEvents?: (version: number) => RenderedChange | undefined;
  /** On Redis: stream tokens and open-stream counts every replica shares (else the app keeps its own). */
  streamTokens?: StreamTokens;
  streamSlots?: StreamSlots;
  /** Webhooks over the store; on Redis, delivered by the replica holding the webhook lease. */
  webhooks: WebhookOptions;
  /** The machine's clock: keys, limits, tokens, webhooks. */
  now: () => number;
  /** The board's clock: the feed's, the stream log's and the board routes'; PROPS_SIM_CLOCK's on the simulator, else `now`. */
  boardNow: () => number;
  /** Stops the feed, flushes usage and closes the store. */
  close(): Promise<void>;
}

/** A board source with no board: what runs until a feed is given. /readyz says not ready. */
export function idleFeed(): RunningFeed {
  const board: Board = EMPTY_BOARD;
  return {
    current: () => board,
    at: () => board,
    subscribe: () => () => {},
    health: () => [],
    ready: () => false,
    stop: async () => {},
  };
}

export interface RuntimeOptions {
  logger?: FeedLogger;
  now?: () => number;
  /** Runs the feed config names (`serve`); without it, an idle feed. */
  runFeed?: boolean;
  /** The clock webhook retries run on (tests speed it up); default the real one. */
  webhookClock?: WebhookClock;
  /** The simulator's backfill reports its progress here. */
  onBackfill?: StartIngestOptions['onBackfill'];
}

/** The lines' source config names: the real books of PROPS_BOOKS, else the simulated world of PROPS_SIM_SEED. */
export function upstreamOf(
  config: Pick<Config, 'PROPS_BOOKS' | 'PROPS_PRIZEPICKS_URL' | 'PROPS_UNDERDOG_URL' | 'PROPS_SIM_SEED'>,
): Upstream {
  if (config.PROPS_BOOKS.length === 0) return { kind: 'simulator', world: new SimWorld(config.PROPS_SIM_SEED) };
  return {
    kind: 'books',
    books: config.PROPS_BOOKS,
    urls: { prizepicks: config.PROPS_PRIZEPICKS_URL, underdog: config.PROPS_UNDERDOG_URL },
  };
}

/**
 * The simulated world's clock: `startAt` (PROPS_SIM_CLOCK) now, running on from there in
 * real time; without it, `now` itself.
 */
export function simulatedClock(now: () => number, startAt: number | undefined): () => number {
  if (startAt === undefined) return now;
  const offset = startAt - now();
  return () => now() + offset;
}

/** The ingest feed config names, on `db`. */
export function startFeed(opts: Omit<StartIngestOptions, 'upstream'> & { config: Config }): Promise<RunningFeed> {
  const { config, ...rest } = opts;
  return startIngest({ ...rest, upstream: upstreamOf(config) });
}

export async function openRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const now = opts.now ?? Date.now;
  const boardNow = simulatedClock(now, config.PROPS_SIM_CLOCK);
  const { logger } = opts;
  // Before anything opens: a bad payout table is a configuration error.
  const entryTables = entryTablesOf(config);
  const entries = new EntryBook(entryTables);
  const onError = (err: unknown) => logger?.error({ err }, 'background task failed');
  // Config parsing guarantees a database URL beside a Redis URL: replicas share one PostgreSQL.
  const redisUrl = config.PROPS_REDIS_URL;
  const db = await openDb<StoreSchema>({
    databaseUrl: config.PROPS_DATABASE_URL,
    dataDir: config.PROPS_DATA_DIR,
    // A server writes all day: its WAL checkpoints off the event loop.
    checkpointInBackground: opts.runFeed === true,
  });
  const anyDb = db as unknown as Db;
  const keyStore = createKyselyStore(db);
  const limiter: Limiter = redisUrl
    ? new RedisLimiter({
        redis: connectRedis(redisUrl),
        usage: keyStore,
        prefix: config.PROPS_REDIS_PREFIX,
        onError,
        ownsConnection: true,
      })
    : new MemoryLimiter({ usage: keyStore, onError });
  const keys = new KeyCache(keyStore, onError);
  await keys.start();
  // On Redis: a key made or revoked on one replica reaches the others' caches at once.
  const notices = redisUrl
    ? openKeyNotices({
        redisUrl,
        channel: `${config.PROPS_REDIS_PREFIX}keys:changed`,
        onChange: () => {
          keys.refresh().catch(onError);
        },
        onError,
      })
    : undefined;
  const store = notices ? notices.wrap(keyStore) : keyStore;
  // On Redis a stream token works on any replica, and a key's open streams count on all of them.
  const streamRedis = redisUrl ? connectRedis(redisUrl, { onError }) : undefined;
  const streamTokens = streamRedis && new RedisStreamTokens(streamRedis, config.PROPS_REDIS_PREFIX);
  const streamSlots = streamRedis && new RedisStreamSlots(streamRedis, config.PROPS_REDIS_PREFIX, undefined, onError);
  const streamLogLimits =
    config.PROPS_STREAM_LOG_HOURS > 0
      ? { retainMs: config.PROPS_STREAM_LOG_HOURS * 3_600_000, maxEvents: config.PROPS_STREAM_LOG_MAX_EVENTS }
      : undefined;
  // The game-log index loads while ingest starts (a restart's replay takes seconds), and
  // catches up with what ingest wrote before anything is served from it (below).
  const gameLogs = new GameLogIndex(createGameLogStore(anyDb), gameLogCount(anyDb), onError);
  const gameLogsLoaded = gameLogs.start();
  // Awaited below; a failure meanwhile is not an unhandled rejection.
  gameLogsLoaded.catch(() => {});
  let feed: RunningFeed = idleFeed();
  let renderedEvents: Runtime['renderedEvents'];
  // Who prunes line history: where board versions are assigned (the feed; on Redis, the
  // ingest leader). The stream's event log is written and pruned by the ingest worker itself.
  let writesStreamLog = () => false;
  try {
    if (opts.runFeed) {
      // Ingest runs in a worker thread of its own; this thread applies its change log (the same
      // apply code as a Redis replica's) and only serves.
      const ingest = (resume: boolean) =>
        startIngestThread({
          upstream: upstreamOf(config),
          store: { databaseUrl: config.PROPS_DATABASE_URL, dataDir: config.PROPS_DATA_DIR },
          ...(logger ? { logger } : {}),
          ...(opts.onBackfill ? { onBackfill: opts.onBackfill } : {}),
          resume,
          now: boardNow,
          // The worker renders the stream's events once, for this thread's streams and its log.
          stream: {
            entryTables,
            ...(streamLogLimits ? { log: streamLogLimits } : {}),
          },
        });
      // On Redis only the lease holder runs ingest; every replica serves the board replicated
      // through Redis. Embedded, this process is the one replica and always leads.
      if (redisUrl) {
        const cluster = await startClusterFeed({
          redisUrl,
          prefix: config.PROPS_REDIS_PREFIX,
          startIngest: ({ resuming }) => ingest(resuming),
          now: boardNow,
          ...(logger ? { logger } : {}),
        });
        writesStreamLog = () => cluster.isLeader();
        feed = cluster;
      } else {
        const thread = await ingest(false);
        // This thread serves the worker's boards, so it can send the worker's rendering of them;
        // a Redis replica's boards come through Redis, and it renders their events itself.
        renderedEvents = (version) => thread.renderedEvents(version);
        feed = thread;
        writesStreamLog = () => true;
      }
    }
  } catch (err) {
    // No feed, no runtime: the index's checks stop with it.
    gameLogs.stop();
    throw err;
  }
  const streamLog = streamLogLimits
    ? new StreamLog(anyDb, {
        ...streamLogLimits,
        writes: () => false,
        now: boardNow,
        onError: (err) => logger?.error({ err }, 'stream event log failed'),
      })
    : undefined;
  // Line history of games that ended PROPS_HISTORY_DAYS ago, by the process that writes it.
  const historyPruner = createLineHistoryStore(anyDb);
  const stopHistoryPruning = schedulePruning(
    () => historyPruner.pruneEnded(boardNow() - config.PROPS_HISTORY_DAYS * 86_400_000),
    { writes: () => writesStreamLog(), onError: (err) => logger?.error({ err }, 'line history pruning failed') },
  );
  // What the board routes read besides the board; the game-log index is also the projection source.
  await gameLogsLoaded;
  await gameLogs.refresh();
  const boardData = await openBoardData(anyDb, feed, onError, gameLogs);
  const webhookRedis = redisUrl ? connectRedis(redisUrl, { onError }) : undefined;
  const webhooks: WebhookOptions = {
    store: createWebhookStore(anyDb),
    targets: { allowHttp: config.PROPS_WEBHOOK_ALLOW_HTTP, allowPrivate: config.PROPS_WEBHOOK_ALLOW_PRIVATE },
    ...(opts.webhookClock ? { clock: opts.webhookClock } : {}),
    ...(webhookRedis
      ? { leadership: leaseLeadership(webhookRedis, `${config.PROPS_REDIS_PREFIX}webhooks:leader`) }
      : {}),
  };
  return {
    config,
    store,
    limiter,
    keys,
    feed,
    projections: boardData.gameLogs,
    boardData,
    entries,
    coefficients: servedCoefficients(config.PROPS_BOOKS.length > 0),
    ...(streamTokens && streamSlots ? { streamTokens, streamSlots } : {}),
    ...(streamLog ? { streamLog } : {}),
    ...(renderedEvents ? { renderedEvents } : {}),
    webhooks,
    now,
    boardNow,
    async close() {
      keys.stop();
      webhookRedis?.disconnect();
      await notices?.close();
      await streamSlots?.close();
      streamRedis?.disconnect();
      boardData.stop();
      stopHistoryPruning();
      await feed.stop();
      await streamLog?.close();
      await limiter.close();
      await store.close();
    },
  };
}

/**
 * The board routes' data over the store the feed writes (line history, game logs) and the
 * feed itself; its game-log index is also the views' ProjectionSource. `stop()` ends its
 * reloads and board watching (the store stays open).
 */
export async function openBoardData(
  db: Db,
  feed: BoardSource,
  onError: (err: unknown) => void,
  /** The game-log index, started and current (the runtime loads it beside ingest); default one started here. */
  started?: GameLogIndex,
): Promise<BoardData & { stop(): void }> {
  const history = unavailableOnFailure(createLineHistoryStore(db), onError);
  const settlements = settlementsUnavailableOnFailure(createSettlementStore(db), onError);
  const gameLogs = started ?? new GameLogIndex(createGameLogStore(db), gameLogCount(db), onError);
  const openings = new OpeningLines(feed, history);
  openings.start();
  if (!started) await gameLogs.start();
  return {
    gameLogs,
    history,
    openings,
    settlements,
    stop() {
      gameLogs.stop();
      openings.stop();
    },
  };
}

/**
 * Line history reads whose store failures (PostgreSQL down, say) answer 503
 * upstream_unavailable rather than 500: the board itself is still served from memory. The
 * cause is logged, so a failing query is not mistaken for an outage unseen.
 */
function unavailableOnFailure(reader: LineHistoryReader, onError: (err: unknown) => void): LineHistoryReader {
  const unavailable = unavailableError('line history is unavailable right now; retry shortly', onError);
  return {
    propHistory: (q) => reader.propHistory(q).catch(unavailable),
    movers: (q) => reader.movers(q).catch(unavailable),
    resolveGame: (id) => reader.resolveGame(id).catch(unavailable),
  };
}

/** Settlement reads likewise: a store failure answers 503, with the cause logged. */
function settlementsUnavailableOnFailure(reader: SettlementReader, onError: (err: unknown) => void): SettlementReader {
  const unavailable = unavailableError('settled results are unavailable right now; retry shortly', onError);
  return { settled: (q) => reader.settled(q).catch(unavailable) };
}

function unavailableError(message: string, onError: (err: unknown) => void): (err: unknown) => never {
  return (err) => {
    onError(err);
    throw new ApiError('upstream_unavailable', message);
  };
}

/**
 * Webhook work on the shared engines: run by the replica holding a lease in Redis (its own key,
 * apart from the ingest leader's), stopped when it loses it, so exactly one replica delivers.
 */
export function leaseLeadership(redis: Redis, key: string): Leadership {
  return (work, onError) => {
    // Taking and losing the lead run one after the other, never overlapping.
    const transitions = serially();
    const inTurn = (step: () => Promise<void>) => transitions(step).catch(onError);
    const lease: LeaderLease = new LeaderLease({
      redis,
      key,
      onAcquired: () => {
        void inTurn(async () => {
          try {
            await work.start();
          } catch (err) {
            // Leading without the work running would deliver nothing: hand the lead on, try later.
            onError(err);
            await work.stop().catch(onError);
            void lease.resign(5_000).catch(onError);
          }
        });
      },
      onLost: () => inTurn(() => work.stop()),
      onError,
    });
    void lease.start().catch(onError);
    return {
      async stop() {
        await lease.stop();
        // Once every step queued before has settled.
        await transitions(async () => {});
      },
    };
  };
}
