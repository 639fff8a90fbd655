import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MemoryLimiter } from '../../src/limits/memory';
import { openStore } from '../../src/store/kyselyStore';
import type { Store, UsageDelta, UsageStore } from '../../src/store/types';
import { limiterSuite } from './limiter.suite';

const dir = mkdtempSync(join(tmpdir(), 'propsfeed-limiter-'));
let store: Store | undefined;
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

limiterSuite('in-process, usage in SQLite', async () => {
  store ??= await openStore({ PROPS_DATA_DIR: dir, PROPS_DATABASE_URL: undefined });
  const usage = store;
  return { open: async () => new MemoryLimiter({ usage, flushEveryMs: 0 }) };
});

describe('in-process limiter, flushing', () => {
  it('keeps counts a failed flush could not write, and writes them with the next', async () => {
    const written: UsageDelta[][] = [];
    let storeUp = false;
    const usage: UsageStore = {
      usageOn: async () => 0,
      addUsage: async (deltas) => {
        if (!storeUp) throw new Error('store down');
        written.push(deltas);
      },
    };
    const limiter = new MemoryLimiter({ usage, flushEveryMs: 0 });
    const policy = { perMinute: 100, perDay: 100 };
    const now = Date.UTC(2026, 10, 22, 12);
    for (let i = 0; i < 3; i++) await limiter.consume('a', policy, now + i);
    await limiter.consume('b', policy, now);
    await expect(limiter.flush()).rejects.toThrow('store down');
    for (let i = 0; i < 2; i++) await limiter.consume('a', policy, now + 10 + i);
    storeUp = true;
    await limiter.flush();
    expect(written).toEqual([
      [
        { keyId: 'a', day: '2026-11-22', count: 5 },
        { keyId: 'b', day: '2026-11-22', count: 1 },
      ],
    ]);
    await limiter.flush();
    expect(written).toHaveLength(1);
    await limiter.close();
  });

  it('writes counted usage on its own within flushEveryMs, one write at a time, and retries a failed one', async () => {
    const written: number[] = [];
    const errors: unknown[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    let failNext = true;
    const usage: UsageStore = {
      usageOn: async () => 0,
      addUsage: async (deltas) => {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await sleep(30);
        inFlight -= 1;
        if (failNext) {
          failNext = false;
          throw new Error('store busy');
        }
        written.push(deltas.reduce((sum, d) => sum + d.count, 0));
      },
    };
    const limiter = new MemoryLimiter({ usage, flushEveryMs: 10, onError: (err) => errors.push(err) });
    const policy = { perMinute: 100, perDay: 100 };
    for (let i = 0; i < 3; i++) await limiter.consume('a', policy);
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 500, interval: 5 });
    for (let i = 0; i < 2; i++) await limiter.consume('b', policy);
    // Nothing is lost to the failed write: the retry (a second later) writes all five.
    await vi.waitFor(() => expect(written.reduce((a, b) => a + b, 0)).toBe(5), { timeout: 3_000, interval: 20 });
    expect(mostInFlight).toBe(1);
    await limiter.close();
  });

  it('lets go of idle keys beyond maxHeldKeys, and reads their counts back from the store', async () => {
    store ??= await openStore({ PROPS_DATA_DIR: dir, PROPS_DATABASE_URL: undefined });
    const limiter = new MemoryLimiter({ usage: store, flushEveryMs: 0, maxHeldKeys: 10 });
    const policy = { perMinute: 100, perDay: 5 };
    const t0 = Date.UTC(2026, 10, 22, 15);
    const ids = Array.from({ length: 30 }, (_, i) => `held-${i}-${Date.now()}`);
    for (const [i, id] of ids.entries()) {
      await limiter.consume(id, policy, t0 + i);
      await limiter.consume(id, policy, t0 + i);
    }
    await limiter.flush();
    // A minute later every key is idle: the next new key lets the idle ones go.
    const later = t0 + 120_000;
    await limiter.consume('held-newcomer', policy, later);
    expect(limiter.heldKeys).toBeLessThanOrEqual(2);
    // A key let go still knows its day: 2 counted, 3 left.
    const allowed = [];
    for (let i = 0; i < 4; i++)
      allowed.push((await limiter.consume(ids[0] as string, policy, later + 1_000 + i)).allowed);
    expect(allowed).toEqual([true, true, true, false]);
    await limiter.close();
  });
});
