import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSqlite } from '../../src/store/db';
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

describe('better-sqlite3 for the running Node', () => {
  const requireHere = createRequire(import.meta.url);
  const majorOf = (pkg: string) => Number(requireHere(`${pkg}/package.json`).version.split('.')[0]);

  it('loads 13 where Node-API 10 is (Node 22.14+, 24), else 12 (Node 20)', () => {
    expect(majorOf('better-sqlite3-12')).toBe(12);
    expect(loadSqlite('9')).toBe(requireHere('better-sqlite3-12'));
    // 13 is optional, and its engines (Node >= 22) keep pnpm and npm from installing it on Node 20.
    if (Number(process.versions.node.split('.')[0]) < 22) return;
    expect(majorOf('better-sqlite3')).toBe(13);
    expect(loadSqlite('10')).toBe(requireHere('better-sqlite3'));
  });

  it('opens a database on this Node', () => {
    const db = new (loadSqlite())(':memory:');
    expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    db.close();
  });
});
