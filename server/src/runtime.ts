/**
 * The one place that decides, from parsed config, which implementations run: the store
 * (SQLite or PostgreSQL), the limiter (in-process or Redis), the key cache and the feed.
 */
import { openClusterFeed, openRedisLimiter, usesSharedEngines } from './cluster/shared';
import type { Config } from './config';
import type { Board, BoardSource, ProjectionSource } from './feed/types';
import { EMPTY_BOARD } from './feed/types';
import { KeyCache } from './keys/cache';
import { MemoryLimiter } from './limits/memory';
import type { Limiter } from './limits/types';
import { openDb } from './store/db';
import { createKyselyStore, type StoreSchema } from './store/kyselyStore';
import type { Store } from './store/types';

export async function openStore(config: Pick<Config, 'PROPS_DATA_DIR' | 'PROPS_DATABASE_URL'>): Promise<Store> {
  const db = await openDb<StoreSchema>({ databaseUrl: config.PROPS_DATABASE_URL, dataDir: config.PROPS_DATA_DIR });
  return createKyselyStore(db);
}

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

export async function openRuntime(
  config: Config,
  opts: { logger?: RuntimeLogger; now?: () => number; startFeed?: (store: Store) => Promise<RunningFeed> } = {},
): Promise<Runtime> {
  const now = opts.now ?? Date.now;
  const onError = (err: unknown) => opts.logger?.error({ err }, 'background task failed');
  const shared = usesSharedEngines(config);
  const store = await openStore(config);
  const limiter = openLimiter(config, store, onError);
  const keys = new KeyCache(store, onError);
  await keys.start();
  const { startFeed, logger } = opts;
  let feed: RunningFeed = idleFeed();
  // Shared engines: every replica serves the replicated board; only the leader runs startFeed.
  if (startFeed && shared) {
    const clusterLog = {
      info: (o: object, m?: string) => logger?.info?.(o, m),
      error: (o: object, m?: string) => logger?.error(o, m),
    };
    feed = await openClusterFeed(config, () => startFeed(store), clusterLog);
  } else if (startFeed) feed = await startFeed(store);
  return {
    config,
    store,
    limiter,
    keys,
    feed,
    now,
    async close() {
      keys.stop();
      await feed.stop();
      await limiter.close();
      await store.close();
    },
  };
}
