/**
 * The Limiter contract suite, unchanged, against the Redis limiter with usage in PostgreSQL.
 * Every limiter the suite opens is a replica of its own (its own Redis connection) sharing
 * one Redis prefix and one schema, as replicas of one deployment do.
 */
import { afterAll, describe, it } from 'vitest';
import { RedisLimiter } from '../../src/limits/redis';
import { openStore } from '../../src/store/kyselyStore';
import { connectRedis, redisReady } from '../../src/store/redis';
import type { Store } from '../../src/store/types';
import { limiterSuite } from '../limits/limiter.suite';
import {
  createTestSchema,
  dropRedisPrefix,
  enginesAvailable,
  TEST_REDIS_URL,
  type TestSchema,
  uniqueName,
} from './engines';

const available = await enginesAvailable({ postgres: true, redis: true });
const prefix = `${uniqueName('lc')}:`;
let schema: TestSchema | undefined;
let store: Store | undefined;
afterAll(async () => {
  await store?.close();
  await schema?.drop();
  await dropRedisPrefix(prefix);
});

if (available) {
  limiterSuite('Redis, usage in PostgreSQL', async () => {
    schema ??= await createTestSchema('lc');
    store ??= await openStore({ PROPS_DATA_DIR: '', PROPS_DATABASE_URL: schema.url });
    const usage = store;
    return {
      async open() {
        const redis = connectRedis(TEST_REDIS_URL);
        await redisReady(redis);
        const limiter = new RedisLimiter({ redis, usage, prefix, flushEveryMs: 0 });
        return {
          consume: (...args) => limiter.consume(...args),
          consumeAll: (...args) => limiter.consumeAll(...args),
          usedToday: (...args) => limiter.usedToday(...args),
          flush: () => limiter.flush(),
          async close() {
            await limiter.close();
            redis.disconnect();
          },
        };
      },
    };
  });
} else {
  describe.skip('Limiter contract: Redis (engines unreachable; see the reason printed above)', () => {
    it('runs when Redis and PostgreSQL are reachable', () => {});
  });
}
