/**
 * The composition root. From parsed config it decides which implementations run (the store,
 * SQLite or PostgreSQL; the limiter, in-process or Redis; the key cache and its change notices;
 * the feed: simulator or real books, ingested in a worker thread whose change log this thread
 * applies, or on Redis the cluster feed whose leader runs that worker), and it starts every
 * long-lived service over them (the game-log index, the stream hub, webhooks). The app only
 * serves over the Runtime; `Runtime.close()` stops all of it, in one order (shutdown.ts).
 */

import type { EntryTable } from '@propsfeed/contract';
import type { BoardSource, ProjectionSource, RunningFeed } from './board/types';
import { startClusterFeed } from './cluster/feed';
import { startIngestThread } from './cluster/ingestThread';
import { openKeyNotices } from './cluster/keyNotices';
import { leaseLeadership } from './cluster/webhookLease';
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
import { PropOdds } from './odds';
import { servedCoefficients } from './odds/coefficients';
import { EntryBook } from './odds/entries';
import type { Coefficients } from './odds/model';
import { entryTablesOf } from './odds/tables';
import type { BoardData, QueryDeps } from './queries/deps';
import { Shutdown } from './shutdown';
import { GameLogIndex, gameLogCount } from './stats/gameLogIndex';
import { type Db, openDb } from './store/db';
import { createKyselyStore, type StoreSchema } from './store/kyselyStore';
import { schedulePruning } from './store/pruning';
import { connectRedis } from './store/redis';
import type { Store } from './store/types';
import { StreamHub, type StreamHubOptions } from './stream/hub';
import { StreamLog } from './stream/log';
import { MemoryStreamSlots, RedisStreamSlots, type StreamSlots } from './stream/slots';
import { MemoryStreamTokens, RedisStreamTokens, type StreamTokens } from './stream/tokens';
import { ViewRegistry } from './views';
import { OpeningLines } from './views/openingLines';
import type { WebhookClock } from './webhooks/clock';
import { type WebhookOptions, WebhookService } from './webhooks/service';
import { createWebhookStore } from './webhooks/store';

/** Every long-lived service the app serves over, started; `close()` stops them all. */
export interface Runtime {
  /** Keys and usage: key sign-up, the admin API, the first start's demo keys. */
  store: Store;
  limiter: Limiter;
  keys: KeyCache;
  /** The board served (/readyz, the start banner). */
  feed: BoardSource;
  /** What routes, MCP tools and webhooks read: the views over the feed, the board data, the board's clock. */
  queries: QueryDeps;
  /** The machine's clock: keys, limits, tokens, admin. */
  now: () => number;
  /** The open streams of GET /api/v1/stream. */
  streams: StreamHub;
  streamTokens: StreamTokens;
  streamSlots: StreamSlots;
  /** Webhook endpoints and their deliveries; absent: the webhook routes answer 503. */
  webhooks: WebhookService | undefined;
  /** Stops every service before those it runs over, in reverse order of starting; the store closes last. */
  close(): Promise<void>;
}

/** What the services run over, opened: openRuntime's from config, or a test's or benchmark's by hand. */
export interface RuntimeParts {
  store: Store;
  limiter: Limiter;
  keys: KeyCache;
  feed: BoardSource;
  projections?: ProjectionSource | undefined;
  /** Game logs, line history and openings for the board routes (player, context, history, movement). */
  boardData?: BoardData | undefined;
  /** The pick'em payout tables in force (default: the catalog's). */
  entries?: EntryBook;
  /** The model's coefficients served (default: the simulator's; the real ones when the books are real). */
  coefficients?: Coefficients;
  /** The machine's clock (default Date.now). */
  now?: (() => number) | undefined;
  /** The board's clock: views, history windows, the stream (PROPS_SIM_CLOCK's on the simulator); default `now`. */
  boardNow?: () => number;
  /** The stream's numbers (buffer cap, retention, heartbeat), for tests and the benchmark. */
  stream?: Partial<Omit<StreamHubOptions, 'source' | 'views' | 'now' | 'log'>> | undefined;
  /** The stored stream event log (resumes past the in-memory window); none: such ids get a reset snapshot. */
  streamLog?: StreamLog | undefined;
  /** The ingest worker's rendering of each change's events (embedded: the board comes from that worker). */
  renderedEvents?: StreamHubOptions['rendered'];
  /** On Redis: stream tokens and open-stream counts every replica shares; default this process's own. */
  streamTokens?: StreamTokens;
  streamSlots?: StreamSlots;
  /** Webhooks: their store, targets allowed, clock, leadership; none: no webhook service. */
  webhooks?: WebhookOptions | undefined;
  /** Where the services' background failures are logged. */
  logger?: FeedLogger | undefined;
}

/**
 * Starts the services over `parts`: the views, the stream hub, webhooks (which produce from the
 * hub's changes) and the watch that ends a revoked key's streams. The runtime's close stops them,
 * newest first, then whatever `shutdown` held before (the parts' own stops, deferred as each opened).
 */
export function assembleRuntime(parts: RuntimeParts, shutdown = new Shutdown()): Runtime {
  const now = parts.now ?? Date.now;
  const boardNow = parts.boardNow ?? now;
  const entries = parts.entries ?? new EntryBook();
  const odds = new PropOdds(entries, parts.boardData?.gameLogs, parts.coefficients);
  const queries: QueryDeps = {
    views: new ViewRegistry(parts.feed, parts.projections, odds),
    limiter: parts.limiter,
    now: boardNow,
    machineNow: now,
    boardData: parts.boardData,
    entries,
    ...(parts.coefficients ? { coefficients: parts.coefficients } : {}),
  };
  const { streamLog, keys } = parts;
  const streams = new StreamHub({
    ...parts.stream,
    ...(streamLog ? { log: streamLog } : {}),
    ...(parts.renderedEvents ? { rendered: parts.renderedEvents } : {}),
    source: parts.feed,
    views: queries.views,
    now: boardNow,
    onError: (err) => parts.logger?.debug?.({ err }, 'stream: the feed gave no board history at start'),
  });
  streams.start();
  shutdown.defer(async () => {
    streams.stop();
    // What the last boards' changes append is written before the store closes.
    await streamLog?.flush();
  });
  const webhooks =
    parts.webhooks &&
    new WebhookService({
      ...parts.webhooks,
      keys,
      changes: streams,
      queries,
      odds,
      settlements: parts.boardData?.settlements,
      onError: (err) => parts.logger?.error({ err }, 'webhooks: background work failed'),
    });
  if (webhooks) {
    webhooks.start();
    // Before the hub stops: what is being produced is stored, what is under way is recorded.
    shutdown.defer(() => webhooks.stop());
  }
  // A revoked key's streams end as soon as the key cache hears of it (its poll, or a notice).
  shutdown.defer(keys.onChange(() => streams.endRevoked((keyId) => keys.isActive(keyId))));
  return {
    store: parts.store,
    limiter: parts.limiter,
    keys,
    feed: parts.feed,
    queries,
    now,
    streams,
    streamTokens: parts.streamTokens ?? new MemoryStreamTokens(),
    streamSlots: parts.streamSlots ?? new MemoryStreamSlots(),
    webhooks,
    close: () => shutdown.close(),
  };
}

export interface RuntimeOptions {
  logger?: FeedLogger;
  now?: () => number;
  /** The clock webhook retries run on (tests speed it up); default the real one. */
  webhookClock?: WebhookClock;
  /** The simulator's backfill reports its progress here. */
  onBackfill?: StartIngestOptions['onBackfill'];
}

/** The lines' source config names: the real books of PROPS_BOOKS, else the simulated world of PROPS_SIM_SEED. */
export function upstreamOf(
  config: Pick<Config, 'PROPS_BOOKS' | 'PROPS_PRIZEPICKS_URL' | 'PROPS_UNDERDOG_URL' | 'PROPS_SIM_SEED'>,
): Upstream {
  if (config.PROPS_BOOKS.length === 0) return { kind: 'simulator', seed: config.PROPS_SIM_SEED };
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

/**
 * Opens the engines config names and starts every service over them (assembleRuntime). Each
 * one's stop is deferred as it opens: `close()`, or a later one failing to start, stops them
 * newest first, so the store closes last.
 */
export async function openRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const now = opts.now ?? Date.now;
  const boardNow = simulatedClock(now, config.PROPS_SIM_CLOCK);
  const { logger } = opts;
  // Before anything opens: a bad payout table is a configuration error.
  const entryTables = entryTablesOf(config);
  const onError = (err: unknown) => logger?.error({ err }, 'background task failed');
  const shutdown = new Shutdown();
  try {
    const db = await openDb<StoreSchema>({
      databaseUrl: config.PROPS_DATABASE_URL,
      dataDir: config.PROPS_DATA_DIR,
      // A server writes all day: its WAL checkpoints off the event loop.
      checkpointInBackground: true,
    });
    const anyDb = db as unknown as Db;
    const keyStore = createKyselyStore(db);
    shutdown.defer(() => keyStore.close());
    const { store, limiter, keys } = await openKeyAccess(config, keyStore, shutdown, onError);
    const streamLimits: StreamLogLimits | undefined =
      config.PROPS_STREAM_LOG_HOURS > 0
        ? { retainMs: config.PROPS_STREAM_LOG_HOURS * 3_600_000, maxEvents: config.PROPS_STREAM_LOG_MAX_EVENTS }
        : undefined;
    // The game-log index loads while ingest starts (a restart's replay takes seconds), and
    // catches up with what ingest wrote before anything is served from it (below).
    const gameLogs = new GameLogIndex(createGameLogStore(anyDb), gameLogCount(anyDb), onError);
    const gameLogsLoaded = gameLogs.start();
    // Awaited below; a failure meanwhile is not an unhandled rejection.
    gameLogsLoaded.catch(() => {});
    shutdown.defer(() => gameLogs.stop());
    // Read here, written by the ingest worker: it closes after the feed stops.
    const streamLog =
      streamLimits &&
      new StreamLog(anyDb, {
        ...streamLimits,
        writes: () => false,
        now: boardNow,
        onError: (err) => logger?.error({ err }, 'stream event log failed'),
      });
    if (streamLog) shutdown.defer(() => streamLog.close());
    const ingest = await startFeedOf(config, { ...opts, now: boardNow, entryTables, streamLimits });
    shutdown.defer(() => ingest.feed.stop());
    // Line history of games that ended PROPS_HISTORY_DAYS ago, by the process that writes it
    // (where board versions are assigned: the feed; on Redis, the ingest leader).
    const historyPruner = createLineHistoryStore(anyDb);
    shutdown.defer(
      schedulePruning(() => historyPruner.pruneEnded(boardNow() - config.PROPS_HISTORY_DAYS * 86_400_000), {
        writes: ingest.writes,
        onError: (err) => logger?.error({ err }, 'line history pruning failed'),
      }),
    );
    // What the board routes read besides the board; the game-log index is also the projection source.
    await gameLogsLoaded;
    await gameLogs.refresh();
    const boardData = await openBoardData(anyDb, ingest.feed, onError, gameLogs);
    shutdown.defer(() => boardData.stop());
    const sharing = streamSharing(config, shutdown, onError);
    const webhooks = webhookOptions(config, anyDb, opts.webhookClock, shutdown, onError);
    const parts: RuntimeParts = {
      store,
      limiter,
      keys,
      feed: ingest.feed,
      projections: boardData.gameLogs,
      boardData,
      entries: new EntryBook(entryTables),
      coefficients: servedCoefficients(config.PROPS_BOOKS.length > 0),
      ...sharing,
      streamLog,
      ...(ingest.renderedEvents ? { renderedEvents: ingest.renderedEvents } : {}),
      webhooks,
      now,
      boardNow,
      logger,
    };
    return assembleRuntime(parts, shutdown);
  } catch (err) {
    await shutdown.close().catch(onError);
    throw err;
  }
}

/** The stored stream event log's retention (PROPS_STREAM_LOG_HOURS, PROPS_STREAM_LOG_MAX_EVENTS). */
type StreamLogLimits = { retainMs: number; maxEvents: number };

/**
 * The limiter and the key cache over the key store (on Redis: limits counted in Redis, and key
 * changes noticed by every replica at once), each one's stop deferred.
 */
async function openKeyAccess(
  config: Config,
  keyStore: Store,
  shutdown: Shutdown,
  onError: (err: unknown) => void,
): Promise<{ store: Store; limiter: Limiter; keys: KeyCache }> {
  // Config parsing guarantees a database URL beside a Redis URL: replicas share one PostgreSQL.
  const redisUrl = config.PROPS_REDIS_URL;
  const limiter: Limiter = redisUrl
    ? new RedisLimiter({
        redis: connectRedis(redisUrl),
        usage: keyStore,
        prefix: config.PROPS_REDIS_PREFIX,
        onError,
        ownsConnection: true,
      })
    : new MemoryLimiter({ usage: keyStore, onError });
  // Usage is flushed to the store before it closes.
  shutdown.defer(() => limiter.close());
  const keys = new KeyCache(keyStore, onError);
  await keys.start();
  shutdown.defer(() => keys.stop());
  if (!redisUrl) return { store: keyStore, limiter, keys };
  // On Redis: a key made or revoked on one replica reaches the others' caches at once.
  const notices = openKeyNotices({
    redisUrl,
    channel: `${config.PROPS_REDIS_PREFIX}keys:changed`,
    onChange: () => {
      keys.refresh().catch(onError);
    },
    onError,
  });
  shutdown.defer(() => notices.close());
  return { store: notices.wrap(keyStore), limiter, keys };
}

/** On Redis a stream token works on any replica, and a key's open streams count on all of them. */
function streamSharing(
  config: Config,
  shutdown: Shutdown,
  onError: (err: unknown) => void,
): Pick<RuntimeParts, 'streamTokens' | 'streamSlots'> {
  if (!config.PROPS_REDIS_URL) return {};
  const redis = connectRedis(config.PROPS_REDIS_URL, { onError });
  const streamSlots = new RedisStreamSlots(redis, config.PROPS_REDIS_PREFIX, undefined, onError);
  shutdown.defer(async () => {
    await streamSlots.close();
    redis.disconnect();
  });
  return { streamTokens: new RedisStreamTokens(redis, config.PROPS_REDIS_PREFIX), streamSlots };
}

/**
 * The feed config names, started: ingest in a worker thread of its own, this thread applying its
 * change log (the same apply code as a Redis replica's) and only serving; on Redis, the cluster
 * feed, whose lease holder alone runs that worker. `writes`: whether this process writes the
 * board's history now (and so prunes it).
 */
async function startFeedOf(
  config: Config,
  opts: Pick<RuntimeOptions, 'logger' | 'onBackfill'> & {
    now: () => number;
    entryTables: readonly EntryTable[];
    streamLimits: StreamLogLimits | undefined;
  },
): Promise<{ feed: RunningFeed; renderedEvents?: RuntimeParts['renderedEvents']; writes: () => boolean }> {
  const { logger, onBackfill, now, entryTables, streamLimits } = opts;
  const ingest = (resume: boolean) =>
    startIngestThread({
      upstream: upstreamOf(config),
      store: { databaseUrl: config.PROPS_DATABASE_URL, dataDir: config.PROPS_DATA_DIR },
      ...(logger ? { logger } : {}),
      ...(onBackfill ? { onBackfill } : {}),
      resume,
      now,
      // The worker renders the stream's events once, for this thread's streams and its log.
      stream: { entryTables, ...(streamLimits ? { log: streamLimits } : {}) },
    });
  const redisUrl = config.PROPS_REDIS_URL;
  if (redisUrl) {
    // Every replica serves the board replicated through Redis, and renders its events itself.
    const cluster = await startClusterFeed({
      redisUrl,
      prefix: config.PROPS_REDIS_PREFIX,
      startIngest: ({ resuming }) => ingest(resuming),
      now,
      ...(logger ? { logger } : {}),
    });
    return { feed: cluster, writes: () => cluster.isLeader() };
  }
  // Embedded, this process is the one replica and always leads. It serves the worker's boards,
  // so it can send the worker's rendering of them.
  const thread = await ingest(false);
  return { feed: thread, renderedEvents: (version) => thread.renderedEvents(version), writes: () => true };
}

/** Webhooks over the store; on Redis, delivered by the replica holding the webhook lease. */
function webhookOptions(
  config: Config,
  db: Db,
  clock: WebhookClock | undefined,
  shutdown: Shutdown,
  onError: (err: unknown) => void,
): WebhookOptions {
  const redis = config.PROPS_REDIS_URL ? connectRedis(config.PROPS_REDIS_URL, { onError }) : undefined;
  // Deferred before the service starts: the lease's connection closes after the service stops.
  if (redis) shutdown.defer(() => redis.disconnect());
  return {
    store: createWebhookStore(db),
    targets: { allowHttp: config.PROPS_WEBHOOK_ALLOW_HTTP, allowPrivate: config.PROPS_WEBHOOK_ALLOW_PRIVATE },
    ...(clock ? { clock } : {}),
    ...(redis ? { leadership: leaseLeadership(redis, `${config.PROPS_REDIS_PREFIX}webhooks:leader`) } : {}),
  };
}

/**
 * The board routes' data over the store the feed writes (line history, game logs) and the
 * feed itself; its game-log index is also the views' ProjectionSource. `stop()` ends its
 * board watching and the reloads of an index it started (the store stays open).
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
      // A started index passed in is its owner's to stop.
      if (!started) gameLogs.stop();
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
