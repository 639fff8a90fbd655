/**
 * `pnpm bench --shared`: the same app on the shared engines (PostgreSQL store, Redis limiter),
 * beside the embedded one, so the benchmark prints keyed routes on both in the same run.
 * Uses PROPS_BENCH_DATABASE_URL / PROPS_BENCH_REDIS_URL (default: this machine's services),
 * in a fresh schema and Redis prefix that are removed afterwards. Also a baseline for them: a
 * bare Fastify route making one Redis round trip per request, what any design that asks
 * Redis on every request pays on this machine.
 */
import { randomBytes } from 'node:crypto';
import { assembleRuntime, type BoardSource, type CreateKeyInput, createApp } from '@propsfeed/server';
import { issueKey, KeyCache } from '@propsfeed/server/keys';
import { RedisLimiter } from '@propsfeed/server/limits';
import { connectRedis, openStore, redisReady } from '@propsfeed/server/store';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';

const DATABASE_URL = process.env.PROPS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.PROPS_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** GET /redis-roundtrip on `app`: one Redis INCR per request, then a small JSON. Returns its cleanup. */
export async function registerRedisRoundTrip(app: FastifyInstance): Promise<() => Promise<void>> {
  const redis = connectRedis(REDIS_URL);
  await redisReady(redis);
  const counter = `bench_roundtrip_${process.pid}`;
  app.get('/redis-roundtrip', async () => {
    await redis.incr(counter);
    return { ok: true, service: 'propsfeed', version: 1 };
  });
  return async () => {
    await redis.del(counter);
    redis.disconnect();
  };
}

export interface SharedBenchApp {
  url: string;
  key: string;
  close(): Promise<void>;
}

export async function startSharedApp(source: BoardSource, keyInput: CreateKeyInput): Promise<SharedBenchApp> {
  const schema = `bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const store = await openStore({ PROPS_DATA_DIR: '', PROPS_DATABASE_URL: url.toString() });
  const redis = connectRedis(REDIS_URL);
  await redisReady(redis);
  const prefix = `${schema}:`;
  const limiter = new RedisLimiter({ redis, usage: store, prefix });
  const keys = new KeyCache(store);
  await keys.start();
  const runtime = assembleRuntime({ store, limiter, keys, feed: source });
  const app: FastifyInstance = await createApp(runtime, { logLevel: 'warn' });
  const { created, record } = await issueKey(store, keyInput);
  keys.put(record);
  const listening = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: listening,
    key: created.key,
    async close() {
      await app.close();
      await runtime.close();
      keys.stop();
      await limiter.close();
      const leftovers = await redis.keys(`${prefix}*`);
      if (leftovers.length > 0) await redis.del(...leftovers);
      redis.disconnect();
      await store.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}
