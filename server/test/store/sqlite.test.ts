import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openStore } from '../../src/store/kyselyStore';
import { storeSuite } from './store.suite';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

storeSuite('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'propsfeed-store-'));
  dirs.push(dir);
  return openStore({ PROPS_DATA_DIR: dir, PROPS_DATABASE_URL: undefined });
});
