/**
 * What every Limiter must do, written once: run it against the in-process limiter here and
 * against the Redis one in the shared-engine tests. `open()` gives a limiter; successive
 * calls share durable usage, as a restarted server would.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Limiter, LimitPolicy } from '../../src/limits/types';

export interface LimiterHarness {
  open(): Promise<Limiter>;
}

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const MIDNIGHT = Date.UTC(2026, 10, 23, 0, 0, 0);

export function limiterSuite(name: string, harness: () => Promise<LimiterHarness>): void {
  describe(`Limiter contract: ${name}`, () => {
    const opened: Limiter[] = [];
    const open = async () => {
      const limiter = await (await harness()).open();
      opened.push(limiter);
      return limiter;
    };
    const keyId = () => `test-${randomUUID()}`;
    afterEach(async () => {
      for (const l of opened.splice(0)) await l.close();
    });

    it('admits the per-minute limit, then refuses with rate_limited and a retry time', async () => {
      const limiter = await open();
      const key = keyId();
      const policy: LimitPolicy = { perMinute: 5, perDay: 100 };
      for (let i = 0; i < 5; i++) {
        const d = await limiter.consume(key, policy, NOW + i);
        expect(d.allowed).toBe(true);
        expect(d.minute.remaining).toBe(4 - i);
        expect(d.day).toMatchObject({ limit: 100, used: i + 1, remaining: 99 - i });
      }
      const refused = await limiter.consume(key, policy, NOW + 10);
      expect(refused).toMatchObject({ allowed: false, reason: 'rate_limited', minute: { limit: 5, remaining: 0 } });
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    });

    it('slides: capacity returns as the oldest requests leave the window', async () => {
      const limiter = await open();
      const key = keyId();
      const policy = { perMinute: 3, perDay: 100 };
      await limiter.consume(key, policy, NOW);
      await limiter.consume(key, policy, NOW + 20_000);
      await limiter.consume(key, policy, NOW + 40_000);
      expect((await limiter.consume(key, policy, NOW + 59_000)).allowed).toBe(false);
      expect((await limiter.consume(key, policy, NOW + 61_000)).allowed).toBe(true);
      expect((await limiter.consume(key, policy, NOW + 62_000)).allowed).toBe(false);
      expect((await limiter.consume(key, policy, NOW + 81_000)).allowed).toBe(true);
    });

    it('does not count refused requests', async () => {
      const limiter = await open();
      const key = keyId();
      const policy = { perMinute: 2, perDay: 100 };
      for (let i = 0; i < 10; i++) await limiter.consume(key, policy, NOW + i);
      expect(await limiter.usedToday(key, NOW + 20)).toBe(2);
      expect((await limiter.consume(key, policy, NOW + 61_000)).allowed).toBe(true);
    });

    it('enforces the UTC-day quota until midnight UTC', async () => {
      const limiter = await open();
      const key = keyId();
      const policy = { perMinute: 100, perDay: 3 };
      for (let i = 0; i < 3; i++) expect((await limiter.consume(key, policy, NOW + i)).allowed).toBe(true);
      const refused = await limiter.consume(key, policy, NOW + 5);
      expect(refused).toMatchObject({ allowed: false, reason: 'daily_quota_exceeded', day: { remaining: 0, used: 3 } });
      expect(refused.retryAfterSeconds).toBe(Math.ceil((MIDNIGHT - NOW - 5) / 1000));
      expect(refused.day.resetAt).toBe(MIDNIGHT);
      const nextDay = await limiter.consume(key, policy, MIDNIGHT + 1);
      expect(nextDay).toMatchObject({ allowed: true, day: { used: 1 } });
    });

    it('admits exactly the limit under concurrency', async () => {
      const limiter = await open();
      const key = keyId();
      const policy = { perMinute: 30, perDay: 1000 };
      const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.consume(key, policy, NOW)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(30);
      expect(await limiter.usedToday(key, NOW)).toBe(30);
    });

    it('counts a request on several keys only when every one has room', async () => {
      const limiter = await open();
      const [network, everyone] = [keyId(), keyId()];
      const both = [
        { keyId: network, policy: { perMinute: 2, perDay: 100 } },
        { keyId: everyone, policy: { perMinute: 100, perDay: 3 } },
      ];
      for (let i = 0; i < 2; i++) {
        const decisions = await limiter.consumeAll(both, NOW + i);
        expect(decisions.map((d) => d.allowed)).toEqual([true, true]);
        expect(decisions[1]?.day.used).toBe(i + 1);
      }
      // The network's minute is full: nothing is counted on the global key either.
      const refused = await limiter.consumeAll(both, NOW + 5);
      expect(refused.map((d) => d.allowed)).toEqual([false, true]);
      expect(refused[0]).toMatchObject({ reason: 'rate_limited', minute: { remaining: 0 } });
      expect(refused[0]?.retryAfterSeconds).toBe(60);
      expect(await limiter.usedToday(everyone, NOW + 6)).toBe(2);
      // Another network: the global day has room for one more, then refuses for both.
      const other = { keyId: keyId(), policy: { perMinute: 2, perDay: 100 } };
      expect((await limiter.consumeAll([other, both[1] as (typeof both)[1]], NOW + 7)).map((d) => d.allowed)).toEqual([
        true,
        true,
      ]);
      const dayFull = await limiter.consumeAll([other, both[1] as (typeof both)[1]], NOW + 8);
      expect(dayFull.map((d) => d.allowed)).toEqual([true, false]);
      expect(dayFull[1]?.reason).toBe('daily_quota_exceeded');
      expect(await limiter.usedToday(other.keyId, NOW + 9)).toBe(1);
      // A minute on, the network's window has room again.
      expect((await limiter.consumeAll([both[0] as (typeof both)[0]], NOW + 61_000))[0]?.allowed).toBe(true);
      // Concurrent requests admit exactly what the tightest key allows.
      const crowd = { keyId: keyId(), policy: { perMinute: 5, perDay: 100 } };
      const decided = await Promise.all(Array.from({ length: 12 }, () => limiter.consumeAll([crowd], NOW + 70_000)));
      expect(decided.filter(([d]) => d?.allowed)).toHaveLength(5);
      expect(await limiter.usedToday(crowd.keyId, NOW + 70_000)).toBe(5);
    });

    it('keeps usage across a restart', async () => {
      const key = keyId();
      const policy = { perMinute: 100, perDay: 10 };
      const first = await open();
      for (let i = 0; i < 7; i++) await first.consume(key, policy, NOW + i);
      await first.flush();
      await first.close();
      opened.splice(opened.indexOf(first), 1);
      const second = await open();
      expect(await second.usedToday(key, NOW + 100)).toBe(7);
      const allowed = [];
      for (let i = 0; i < 5; i++) allowed.push((await second.consume(key, policy, NOW + 200 + i)).allowed);
      expect(allowed).toEqual([true, true, true, false, false]);
    });
  });
}
