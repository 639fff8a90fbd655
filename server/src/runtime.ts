/**
 * The one place that decides, from parsed config, which implementations run: the store
 * (SQLite or PostgreSQL), the limiter (in-process or Redis), the key cache and the feed.
 */
import { openClusterFeed, openRedisLimiter, openSharedKeyNotices, usesSharedEngines } from './cluster/shared';
import type { Config } from './config';
import { ApiError } from './errors/apiError';
import type { Board, BoardSource, ProjectionSource } from './feed/types';
import { EMPTY_BOARD } from './feed/types';
import { createGameLogStore } from './history/gameLogs';
import { createLineHistoryStore } from './history/lineHistory';
import type { LineHistoryReader } from './history/types';
import { KeyCache } from './keys/cache';
import { MemoryLimiter } from './limits/memory';
import type { Limiter } from './limits/types';
import type { BoardData } from './queries/deps';
import { GameLogIndex, gameLogCount } from './stats/gameLogIndex';
import { type Db, openDb } from './store/db';
import { createKyselyStore, type StoreSchema } from './store/kyselyStore';
import type { Store } from './store/types';
import { OpeningLines } from './views/openingLines';

export function openLimiter(config: Config, store: Store, onError: (err: unknown) => void): Limiter {
  if (usesSharedEngines(config)) return openRedisLimiter(config, store, onError);
  return new MemoryLimiter({ usage: store, onError });
}

/** The feed as the runtime runs it: a board source that can be stopped. */
export interface RunningFeed extends BoardSource {
  stop(): Promise<void>;
}

export interface Runtime {
  config: Config;
  store: Store;
  limiter: Limiter;
  keys: KeyCache;
  feed: RunningFeed;
  projections?: ProjectionSource;
  boardData: BoardData;
  now: () => number;
  /** Stops the feed, flushes usage and closes the store. */
  close(): Promise<void>;
}

export interface RuntimeLogger {
  error(obj: unknown, msg?: string): void;
  info?(obj: unknown, msg?: string): void;
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
  logger?: RuntimeLogger;
  now?: () => number;
  /** Starts the feed on the runtime's database (`serve` passes feed/startFeed); without it, an idle feed. */
  startFeed?: (db: Db, opts?: { resume?: boolean }) => Promise<RunningFeed>;
}

export async function openRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const now = opts.now ?? Date.now;
  const onError = (err: unknown) => opts.logger?.error({ err }, 'background task failed');
  const shared = usesSharedEngines(config);
  const db = await openDb<StoreSchema>({ databaseUrl: config.PROPS_DATABASE_URL, dataDir: config.PROPS_DATA_DIR });
  const anyDb = db as unknown as Db;
  const keyStore = createKyselyStore(db);
  const limiter = openLimiter(config, keyStore, onError);
  const keys = new KeyCache(keyStore, onError);
  await keys.start();
  // Shared engines: a key made or revoked on one replica reaches the others' caches at once.
  const notices = shared && config.PROPS_REDIS_URL ? openSharedKeyNotices(config, keys, onError) : undefined;
  const store = notices ? notices.wrap(keyStore) : keyStore;
  const { startFeed, logger } = opts;
  let feed: RunningFeed = idleFeed();
  // Shared engines: every replica serves the replicated board; only the leader runs startFeed.
  if (startFeed && shared) {
    const clusterLog = {
      info: (o: object, m?: string) => logger?.info?.(o, m),
      error: (o: object, m?: string) => logger?.error(o, m),
    };
    feed = await openClusterFeed(config, (ingest) => startFeed(anyDb, { resume: ingest.resuming }), clusterLog);
  } else if (startFeed) feed = await startFeed(anyDb);
  // What the board routes read besides the board; the game-log index is also the projection source.
  const boardData = await openBoardData(anyDb, feed, onError);
  return {
    config,
    store,
    limiter,
    keys,
    feed,
    projections: boardData.gameLogs,
    boardData,
    now,
    async close() {
      keys.stop();
      await notices?.close();
      boardData.stop();
      await feed.stop();
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
): Promise<BoardData & { stop(): void }> {
  const history = unavailableOnFailure(createLineHistoryStore(db), onError);
  const gameLogs = new GameLogIndex(createGameLogStore(db), gameLogCount(db), onError);
  const openings = new OpeningLines(feed, history);
  openings.start();
  await gameLogs.start();
  return {
    gameLogs,
    history,
    openings,
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
  const unavailable = (err: unknown): never => {
    onError(err);
    throw new ApiError('upstream_unavailable', 'line history is unavailable right now; retry shortly');
  };
  return {
    propHistory: (q) => reader.propHistory(q).catch(unavailable),
    movers: (q) => reader.movers(q).catch(unavailable),
    resolveGame: (id) => reader.resolveGame(id).catch(unavailable),
  };
}
