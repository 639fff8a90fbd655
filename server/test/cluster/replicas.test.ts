/**
 * Several server replicas (child processes) on PostgreSQL + Redis: limits exact across them,
 * key revocation reaching all of them, and each engine's outage as the clients see it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueKey } from '../../src/keys/issue';
import { utcDay } from '../../src/limits/types';
import { openStore } from '../../src/runtime';
import type { Store } from '../../src/store/types';
import {
  createTestSchema,
  dropRedisPrefix,
  enginesAvailable,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  type TestSchema,
  uniqueName,
} from '../shared/engines';
import { startTcpProxy, type TcpProxy } from '../shared/tcp-proxy';
import { type Replica, startReplica } from './replicas';

const available = await enginesAvailable({ postgres: true, redis: true });
const ADMIN_TOKEN = 'cluster-test-admin-token';

describe.skipIf(!available)('replicas on PostgreSQL + Redis (multi-process)', () => {
  const prefix = `${uniqueName('mp')}:`;
  let schema: TestSchema;
  let store: Store;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let replicas: Replica[] = [];
  /** Keys made before the replicas start, so every replica knows them from its first request. */
  let keys: Record<'limit' | 'revoke' | 'redis' | 'postgres', { key: string; id: string; prefix: string }>;

  async function key(tier: 'free' | 'sharp', label: string): Promise<{ key: string; id: string; prefix: string }> {
    const { created, record } = await issueKey(store, { tier, label });
    return { key: created.key, id: record.id, prefix: record.keyPrefix };
  }
  const get = (replica: Replica, path: string, apiKey: string) =>
    fetch(`${replica.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
  const status = async (replica: Replica, path: string, apiKey: string) => (await get(replica, path, apiKey)).status;

  beforeAll(async () => {
    schema = await createTestSchema('mp');
    store = await openStore({ PROPS_DATA_DIR: '', PROPS_DATABASE_URL: schema.url });
    keys = {
      limit: await key('free', 'limit test'),
      revoke: await key('sharp', 'to revoke'),
      redis: await key('sharp', 'redis outage'),
      postgres: await key('sharp', 'postgres outage'),
    };
    const pg = new URL(TEST_DATABASE_URL);
    const redis = new URL(TEST_REDIS_URL);
    pgProxy = await startTcpProxy(pg.hostname, Number(pg.port || 5432));
    redisProxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
    const viaPg = new URL(schema.url);
    viaPg.host = `127.0.0.1:${pgProxy.port}`;
    const env = {
      PROPS_DATABASE_URL: viaPg.toString(),
      PROPS_REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      PROPS_REDIS_PREFIX: prefix,
      PROPS_ADMIN_TOKEN: ADMIN_TOKEN,
    };
    // Every start settles before a failure is reported, so afterAll stops each one that started.
    const started = await Promise.allSettled([startReplica(env), startReplica(env), startReplica(env)]);
    replicas = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.kill()));
    await pgProxy?.close();
    await redisProxy?.close();
    await store?.close();
    await schema?.drop();
    await dropRedisPrefix(prefix);
  });

  it('admits exactly 30 of 40 parallel requests spread over the replicas on a 30/min key', async () => {
    const free = keys.limit.key;
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => status(replicas[i % replicas.length] as Replica, '/api/v1/me', free)),
    );
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(statuses),
    ).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const me = await (await get(replicas[0] as Replica, '/api/v1/me', free)).json();
    expect(me).toMatchObject({ error: 'rate_limited' });
  });

  it('refuses a key revoked through one replica on every other replica within a second', async () => {
    const target = keys.revoke;
    for (const r of replicas) expect(await status(r, '/api/v1/sports', target.key)).toBe(200);
    const revoked = await fetch(`${replicas[0]?.url}/admin/v1/keys/${target.prefix}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(revoked.status).toBe(200);
    await vi.waitFor(
      async () => {
        for (const r of replicas.slice(1)) expect(await status(r, '/api/v1/sports', target.key)).toBe(401);
      },
      { timeout: 1_000, interval: 25 },
    );
  });

  it('answers 503 upstream_unavailable on keyed routes while Redis is down, and recovers by itself', async () => {
    const sharp = keys.redis.key;
    redisProxy.down();
    try {
      for (const r of replicas) {
        const res = await get(r, '/api/v1/sports', sharp);
        expect(res.status).toBe(503);
        expect(await res.json()).toMatchObject({ error: 'upstream_unavailable' });
        expect((await fetch(`${r.url}/healthz`)).status).toBe(200);
      }
    } finally {
      redisProxy.up();
    }
    await vi.waitFor(
      async () => {
        for (const r of replicas) expect(await status(r, '/api/v1/sports', sharp)).toBe(200);
      },
      { timeout: 15_000, interval: 200 },
    );
  });

  it('keeps serving while PostgreSQL is down and writes the usage held meanwhile when it is back', async () => {
    const { key: sharp, id } = keys.postgres;
    let counted = 0;
    const ok = async (r: Replica, path: string) => {
      const s = await status(r, path, sharp);
      if (s === 200) counted++;
      return s;
    };
    for (const r of replicas) expect(await ok(r, '/api/v1/sports')).toBe(200);
    pgProxy.down();
    try {
      for (let i = 0; i < 9; i++) expect(await ok(replicas[i % 3] as Replica, '/api/v1/sports')).toBe(200);
      const me = await get(replicas[1] as Replica, '/api/v1/me', sharp);
      expect(me.status).toBe(200);
      counted++;
      expect((await me.json()).usage.today).toBe(counted);
    } finally {
      pgProxy.up();
    }
    await vi.waitFor(async () => expect(await store.usageOn(id, utcDay(Date.now()))).toBe(counted), {
      timeout: 15_000,
      interval: 200,
    });
  });
});
