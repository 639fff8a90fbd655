/**
 * The Redis limiter against the machine's Redis and PostgreSQL: exact across replicas,
 * durable usage without double counting, and its behaviour when either engine is down.
 */
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLimiter } from '../../src/limits/memory';
import { RedisLimiter } from '../../src/limits/redis';
import { LimiterUnavailableError, utcDay } from '../../src/limits/types';
import { openDb } from '../../src/store/db';
import { createKyselyStore, type StoreSchema } from '../../src/store/kyselyStore';
import { connectRedis, redisReady } from '../../src/store/redis';
import type { Store, UsageStore } from '../../src/store/types';
import {
  createTestSchema,
  dropRedisPrefix,
  enginesAvailable,
  TEST_REDIS_URL,
  type TestSchema,
  uniqueName,
} from './engines';
import { startTcpProxy } from './tcp-proxy';

const available = await enginesAvailable({ postgres: true, redis: true });

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const policy = { perMinute: 30, perDay: 1000 };

describe.skipIf(!available)('Redis limiter (shared engines)', () => {
  let schema: TestSchema;
  let store: Store;
  const prefix = `${uniqueName('rl')}:`;
  const open: { redis: Redis; limiter: RedisLimiter }[] = [];

  /** One replica's limiter: its own connection, no background flushing. */
  async function replica(usage: UsageStore = store, url = TEST_REDIS_URL) {
    const redis = connectRedis(url);
    await redisReady(redis);
    const limiter = new RedisLimiter({ redis, usage, prefix, flushEveryMs: 0 });
    open.push({ redis, limiter });
    return limiter;
  }

  beforeAll(async () => {
    schema = await createTestSchema('rl');
    store = createKyselyStore(await openDb<StoreSchema>({ databaseUrl: schema.url, dataDir: '' }));
  });
  afterEach(async () => {
    for (const { redis } of open.splice(0)) redis.disconnect();
    await dropRedisPrefix(prefix);
  });
  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  it('admits exactly the per-minute limit of 40 concurrent requests spread over three replicas', async () => {
    const replicas = [await replica(), await replica(), await replica()];
    const decisions = await Promise.all(
      Array.from({ length: 40 }, (_, i) => replicas[i % 3]?.consume('key-a', policy, NOW)),
    );
    expect(decisions.filter((d) => d?.allowed)).toHaveLength(30);
    const refused = decisions.filter((d) => !d?.allowed);
    expect(refused.every((d) => d?.reason === 'rate_limited' && d.retryAfterSeconds === 60)).toBe(true);
    // Refused requests were not counted.
    expect(await replicas[0]?.usedToday('key-a', NOW)).toBe(30);
  });

  it('slides the window second by second', async () => {
    const limiter = await replica();
    const tight = { perMinute: 2, perDay: 100 };
    expect((await limiter.consume('k', tight, NOW)).allowed).toBe(true);
    expect((await limiter.consume('k', tight, NOW + 30_000)).allowed).toBe(true);
    const full = await limiter.consume('k', tight, NOW + 59_999);
    expect(full).toMatchObject({ allowed: false, reason: 'rate_limited', retryAfterSeconds: 1 });
    expect(full.minute).toEqual({ limit: 2, remaining: 0, resetAt: NOW + 60_000 });
    // The first request leaves the window at NOW + 60 s; the second stays until NOW + 90 s.
    expect((await limiter.consume('k', tight, NOW + 60_000)).allowed).toBe(true);
    expect((await limiter.consume('k', tight, NOW + 60_001)).allowed).toBe(false);
  });

  it("remembers the day count of its own latest check-and-count, every replica's requests included", async () => {
    const [a, b] = [await replica(), await replica()];
    expect(a.countedToday('key-c', NOW)).toBeUndefined();
    await a.consume('key-c', policy, NOW);
    for (let i = 1; i <= 3; i++) await b.consume('key-c', policy, NOW + i);
    expect(a.countedToday('key-c', NOW + 10)).toBe(1);
    await a.consume('key-c', policy, NOW + 10);
    expect(a.countedToday('key-c', NOW + 10)).toBe(5);
    expect(b.countedToday('key-c', NOW + 10)).toBe(4);
    // A new UTC day forgets yesterday's counts.
    expect(a.countedToday('key-c', NOW + 12 * 3600_000)).toBeUndefined();
  });

  it('keeps the window exact when a replica runs a second behind, and after a long idle gap', async () => {
    const [ahead, behind] = [await replica(), await replica()];
    const tight = { perMinute: 2, perDay: 100 };
    expect((await ahead.consume('skew', tight, NOW + 1_000)).allowed).toBe(true);
    // Counted in a second older than any the window held before.
    expect((await behind.consume('skew', tight, NOW)).allowed).toBe(true);
    expect((await ahead.consume('skew', tight, NOW + 30_000)).allowed).toBe(false);
    // The older request leaves first and frees exactly one slot.
    expect((await ahead.consume('skew', tight, NOW + 60_000)).allowed).toBe(true);
    expect((await ahead.consume('skew', tight, NOW + 60_500)).allowed).toBe(false);
    // Ten minutes later the whole window has gone.
    const later = await ahead.consume('skew', tight, NOW + 600_000);
    expect(later).toMatchObject({ allowed: true, minute: { remaining: 1, resetAt: NOW + 660_000 } });
  });

  it("waits for enough requests to leave when a key's limit was lowered", async () => {
    const limiter = await replica();
    const before = { perMinute: 5, perDay: 100 };
    for (const at of [0, 10_000, 10_000, 20_000, 20_000]) await limiter.consume('lowered', before, NOW + at);
    // Five in the window, two allowed now: four must leave, the fourth at NOW + 20 s + 60 s.
    const refused = await limiter.consume('lowered', { perMinute: 2, perDay: 100 }, NOW + 30_000);
    expect(refused).toMatchObject({ allowed: false, reason: 'rate_limited', retryAfterSeconds: 50 });
    expect(refused.minute).toEqual({ limit: 2, remaining: 0, resetAt: NOW + 80_000 });
  });

  it('refuses past the daily quota until the UTC day ends, then starts afresh', async () => {
    const limiter = await replica();
    const daily = { perMinute: 100, perDay: 3 };
    for (let i = 0; i < 3; i++) expect((await limiter.consume('d', daily, NOW + i)).allowed).toBe(true);
    const refused = await limiter.consume('d', daily, NOW + 10);
    expect(refused).toMatchObject({ allowed: false, reason: 'daily_quota_exceeded', retryAfterSeconds: 12 * 3600 });
    expect(refused.day).toMatchObject({ used: 3, remaining: 0 });
    const tomorrow = NOW + 12 * 3600_000;
    expect((await limiter.consume('d', daily, tomorrow)).day.used).toBe(1);
  });

  it('decides every request of a call as the in-process limiter does, however the call groups them', async () => {
    const limiter = await replica();
    const reference = new MemoryLimiter();
    // A fixed pseudo-random walk: three keys with tight limits, calls of 1 to 12 requests in
    // one event-loop turn, time moving by up to 15 s, one long idle gap and one new UTC day.
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const keys: [string, { perMinute: number; perDay: number }][] = [
      ['mixed-a', { perMinute: 12, perDay: 1000 }],
      ['mixed-b', { perMinute: 3, perDay: 40 }],
      ['mixed-c', { perMinute: 30, perDay: 60 }],
    ];
    let at = NOW;
    const outcomes = { allowed: 0, rate_limited: 0, daily_quota_exceeded: 0 };
    for (let call = 0; call < 150; call++) {
      at += call === 60 ? 300_000 : call === 120 ? 12 * 3600_000 : rand(15_000);
      const requests = Array.from({ length: 1 + rand(12) }, () => ({ k: keys[rand(3)], nowMs: at + rand(900) }));
      const got = await Promise.all(
        requests.map(({ k, nowMs }) => limiter.consume(k?.[0] ?? '', k?.[1] ?? policy, nowMs)),
      );
      for (const [i, { k, nowMs }] of requests.entries()) {
        const want = await reference.consume(k?.[0] ?? '', k?.[1] ?? policy, nowMs);
        expect(got[i], `call ${call}, request ${i}`).toEqual(want);
        outcomes[want.reason ?? 'allowed']++;
      }
    }
    // The walk admitted plenty and reached both limits often enough to mean something.
    expect(outcomes.allowed).toBeGreaterThan(300);
    expect(outcomes.rate_limited).toBeGreaterThan(50);
    expect(outcomes.daily_quota_exceeded).toBeGreaterThan(20);
  });

  it('flushes usage to PostgreSQL once, however many replicas flush, and survives Redis losing its data', async () => {
    const [a, b] = [await replica(), await replica()];
    for (let i = 0; i < 7; i++) await (i % 2 ? a : b).consume('key-u', policy, NOW + i);
    await Promise.all([a.flush(), b.flush(), a.flush()]);
    await Promise.all([a.flush(), b.flush()]);
    expect(await store.usageOn('key-u', utcDay(NOW))).toBe(7);

    await a.consume('key-u', policy, NOW + 100);
    await a.flush();
    expect(await store.usageOn('key-u', utcDay(NOW))).toBe(8);

    // Redis restarts empty: the count comes back from PostgreSQL and is not written twice.
    await dropRedisPrefix(prefix);
    expect((await b.consume('key-u', policy, NOW + 200)).day.used).toBe(9);
    await b.flush();
    expect(await store.usageOn('key-u', utcDay(NOW))).toBe(9);
  });

  it('holds usage while PostgreSQL is down and writes it when it is back', async () => {
    let storeUp = true;
    const flaky: UsageStore = {
      usageOn: (keyId, day) => (storeUp ? store.usageOn(keyId, day) : Promise.reject(new Error('store down'))),
      addUsage: (deltas) => (storeUp ? store.addUsage(deltas) : Promise.reject(new Error('store down'))),
    };
    const limiter = await replica(flaky);
    const day = utcDay(NOW);
    await store.addUsage([{ keyId: 'key-p', day, count: 5 }]);
    await limiter.consume('key-h', policy, NOW);
    storeUp = false;
    // A key seen first during the outage is admitted and counted provisionally.
    expect((await limiter.consume('key-p', policy, NOW + 1)).allowed).toBe(true);
    await limiter.consume('key-h', policy, NOW + 2);
    await expect(limiter.flush()).rejects.toThrow('store down');
    await expect(limiter.flush()).rejects.toThrow('store down');
    storeUp = true;
    await limiter.flush();
    expect(await store.usageOn('key-h', day)).toBe(2);
    // The provisional counter learned the 5 stored before the outage.
    expect(await store.usageOn('key-p', day)).toBe(6);
    expect(await limiter.usedToday('key-p', NOW)).toBe(6);
  });

  it('fails closed while Redis is unreachable and recovers by itself', async () => {
    const url = new URL(TEST_REDIS_URL);
    const proxy = await startTcpProxy(url.hostname, Number(url.port || 6379));
    try {
      const limiter = await replica(store, `redis://127.0.0.1:${proxy.port}`);
      expect((await limiter.consume('key-r', policy, NOW)).allowed).toBe(true);
      proxy.down();
      await expect(limiter.consume('key-r', policy, NOW + 1)).rejects.toBeInstanceOf(LimiterUnavailableError);
      await expect(limiter.usedToday('key-r', NOW)).rejects.toBeInstanceOf(LimiterUnavailableError);
      proxy.up();
      const redis = open.at(-1)?.redis as Redis;
      await redisReady(redis, 10_000);
      const after = await limiter.consume('key-r', policy, NOW + 2);
      expect(after).toMatchObject({ allowed: true, day: { used: 2 } });
    } finally {
      await proxy.close();
    }
  });
});
