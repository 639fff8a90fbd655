/**
 * The shared-engine side of the runtime's choices (runtime.ts decides; this builds): with
 * PROPS_REDIS_URL the limiter is the Redis one and the feed is the cluster feed, whose
 * leader runs the ingest the runtime was given.
 */
import { type Config, ConfigError } from '../config';
import type { KeyCache } from '../keys/cache';
import { RedisLimiter } from '../limits/redis';
import type { Limiter } from '../limits/types';
import type { UsageStore } from '../store/types';
import { type ClusterFeed, type ClusterLogger, type IngestFeed, startClusterFeed } from './feed';
import { type KeyNotices, openKeyNotices } from './keyNotices';
import { connectRedis } from '../store/redis';

type SharedConfig = Pick<Config, 'PROPS_DATABASE_URL' | 'PROPS_REDIS_URL' | 'PROPS_REDIS_PREFIX'>;

/** True when the configuration names the shared engines (replicas behind a load balancer). */
export function usesSharedEngines(config: SharedConfig): config is SharedConfig & { PROPS_REDIS_URL: string } {
  if (!config.PROPS_REDIS_URL) return false;
  if (!config.PROPS_DATABASE_URL) {
    throw new ConfigError(
      'invalid configuration:\n  PROPS_REDIS_URL: needs PROPS_DATABASE_URL too (replicas must share one PostgreSQL store)',
    );
  }
  return true;
}

export function openRedisLimiter(
  config: SharedConfig & { PROPS_REDIS_URL: string },
  usage: UsageStore,
  onError: (err: unknown) => void,
): Limiter {
  const redis = connectRedis(config.PROPS_REDIS_URL);
  return new RedisLimiter({ redis, usage, prefix: config.PROPS_REDIS_PREFIX, onError, ownsConnection: true });
}

export function openClusterFeed(
  config: SharedConfig & { PROPS_REDIS_URL: string },
  startIngest: (ingest: { resuming: boolean }) => Promise<IngestFeed>,
  logger?: ClusterLogger,
): Promise<ClusterFeed> {
  return startClusterFeed({
    redisUrl: config.PROPS_REDIS_URL,
    prefix: config.PROPS_REDIS_PREFIX,
    startIngest,
    ...(logger ? { logger } : {}),
  });
}

/** Key creations and revocations pushed to every replica's key cache through Redis. */
export function openSharedKeyNotices(
  config: SharedConfig & { PROPS_REDIS_URL: string },
  keys: KeyCache,
  onError: (err: unknown) => void,
): KeyNotices {
  return openKeyNotices({
    redisUrl: config.PROPS_REDIS_URL,
    channel: `${config.PROPS_REDIS_PREFIX}keys:changed`,
    onChange: () => {
      keys.refresh().catch(onError);
    },
    onError,
  });
}
