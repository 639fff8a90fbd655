import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
});
