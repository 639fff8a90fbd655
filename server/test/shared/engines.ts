/**
 * The shared engines (PostgreSQL, Redis) for tests, each test file isolated from every other
 * run on the machine: a fresh PostgreSQL schema and a unique Redis key prefix, both removed
 * afterwards. Where the services are absent the tests are skipped with the reason printed;
 * under CI=true they fail instead, because CI must never skip them silently.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.PROPS_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.PROPS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface EngineAvailability {
  postgres: string | null;
  redis: string | null;
}

/** Why each engine cannot be used (null when reachable). */
export async function probeEngines(): Promise<EngineAvailability> {
  const [postgres, redis] = await Promise.all([probePostgres(), probeRedis()]);
  return { postgres, redis };
}

async function probePostgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return `PostgreSQL at ${TEST_DATABASE_URL} is unreachable (${(err as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

async function probeRedis(): Promise<string | null> {
  const redis = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  let cause: Error | undefined;
  redis.on('error', (err: Error) => {
    cause ??= err;
  });
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (err) {
    return `Redis at ${TEST_REDIS_URL} is unreachable (${(cause ?? (err as Error)).message})`;
  } finally {
    redis.disconnect();
  }
}

const probed = probeEngines();

/**
 * True when the engines a test file needs are up. Otherwise prints why the file is skipped, or
 * under CI=true throws: CI starts the services (.ci/run) and must run these tests.
 */
export async function enginesAvailable(needs: { postgres?: boolean; redis?: boolean }): Promise<boolean> {
  const status = await probed;
  const reasons = [needs.postgres ? status.postgres : null, needs.redis ? status.redis : null].filter(
    (r): r is string => r !== null,
  );
  if (reasons.length === 0) return true;
  const hint =
    'start PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) as .ci/run does, or set PROPS_TEST_DATABASE_URL / PROPS_TEST_REDIS_URL';
  if (process.env.CI === 'true') throw new Error(`shared-engine tests cannot run under CI: ${reasons.join('; ')}`);
  process.stderr.write(`\nSKIPPED shared-engine tests: ${reasons.join('; ')}; ${hint}\n`);
  return false;
}

/** A unique, short name for this test run's schema and key prefix. */
export function uniqueName(kind: string): string {
  return `t_${kind}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export interface TestSchema {
  /** A connection URL whose sessions use the fresh schema (search_path). */
  url: string;
  schema: string;
  drop(): Promise<void>;
}

/** Creates a fresh PostgreSQL schema; `url` connects with it as the search_path. */
export async function createTestSchema(kind = 'pg'): Promise<TestSchema> {
  const schema = uniqueName(kind);
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

/** Deletes every Redis key under `prefix`. */
export async function dropRedisPrefix(prefix: string, url = TEST_REDIS_URL): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
