/** The ingest leader lease over the machine's Redis: one leader, handed over on release or death. */
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeaderLease } from '../../src/cluster/leader';
import { connectRedis, redisReady } from '../../src/store/redis';
import { dropRedisPrefix, enginesAvailable, TEST_REDIS_URL, uniqueName } from '../shared/engines';
import { startTcpProxy, type TcpProxy } from '../shared/tcp-proxy';

const available = await enginesAvailable({ redis: true });

describe.skipIf(!available)('leader lease (Redis)', () => {
  const prefix = `${uniqueName('lease')}:`;
  const key = `${prefix}leader`;
  const connections: Redis[] = [];
  const leases: LeaderLease[] = [];
  const proxies: TcpProxy[] = [];
  /** Who leads, in order of events: `+name` on acquiring, `-name` on losing. */
  let events: string[] = [];

  async function candidate(name: string, url = TEST_REDIS_URL) {
    const redis = connectRedis(url);
    connections.push(redis);
    await redisReady(redis);
    const lease = new LeaderLease({
      redis,
      key,
      ttlMs: 2_000,
      retryEveryMs: 100,
      onAcquired: () => {
        events.push(`+${name}`);
      },
      onLost: () => {
        events.push(`-${name}`);
      },
    });
    leases.push(lease);
    await lease.start();
    return lease;
  }
  const leaders = () => leases.filter((l) => l.isLeader()).length;

  afterEach(async () => {
    await Promise.all(leases.splice(0).map((l) => l.stop()));
    for (const c of connections.splice(0)) c.disconnect();
    await Promise.all(proxies.splice(0).map((p) => p.close()));
    await dropRedisPrefix(prefix);
    events = [];
  });

  it('lets exactly one of several replicas lead, and hands over at once when the leader stops', async () => {
    const [a, b, c] = [await candidate('a'), await candidate('b'), await candidate('c')];
    expect(a.isLeader()).toBe(true);
    expect(leaders()).toBe(1);
    await a.stop();
    await vi.waitFor(() => expect(leaders()).toBe(1), { timeout: 5_000, interval: 20 });
    expect(events).toEqual(['+a', '-a', expect.stringMatching(/^\+[bc]$/)]);
    expect(b.isLeader() || c.isLeader()).toBe(true);
  });

  it('replaces a leader cut off from Redis, which steps down before the lease can pass', async () => {
    const url = new URL(TEST_REDIS_URL);
    const proxy = await startTcpProxy(url.hostname, Number(url.port || 6379));
    proxies.push(proxy);
    const a = await candidate('a', `redis://127.0.0.1:${proxy.port}`);
    const b = await candidate('b');
    expect(a.isLeader()).toBe(true);
    proxy.down();
    await vi.waitFor(() => expect(b.isLeader()).toBe(true), { timeout: 10_000, interval: 20 });
    // The deposed leader stepped down on its own before the other replica took over.
    expect(events).toEqual(['+a', '-a', '+b']);
    expect(a.isLeader()).toBe(false);
    proxy.up();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(leaders()).toBe(1);
  });
});
