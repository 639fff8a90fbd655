import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { MemoryLimiter } from '../../src/limits/memory';
import { openStore } from '../../src/runtime';
import type { Store } from '../../src/store/types';
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
