/** A store is created only when asked: the admin commands refuse one that does not exist yet. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { openKeyAdmin } from '../../src/keys/keyAdmin';
import { describeStore, StoreMissingError } from '../../src/store/db';
import { createTestSchema, enginesAvailable, type TestSchema } from '../shared/engines';

const dir = mkdtempSync(join(tmpdir(), 'propsfeed-missing-store-'));
const schemas: TestSchema[] = [];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const s of schemas) await s.drop();
});

describe('opening a store that does not exist', () => {
  it('SQLite: refuses without create, names the file, and leaves no folder behind; creates with it', async () => {
    const config = loadConfig({ PROPS_DATA_DIR: join(dir, 'data') });
    const err = await openKeyAdmin(config, { create: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreMissingError);
    expect((err as Error).message).toContain(`at SQLite ${join(dir, 'data', 'propsfeed.db')}.`);
    expect(existsSync(join(dir, 'data'))).toBe(false);
    const created = await openKeyAdmin(config, { create: true });
    await created.close();
    const reopened = await openKeyAdmin(config, { create: false });
    expect(await reopened.list()).toEqual([]);
    await reopened.close();
  });

  it('PostgreSQL: a schema without the store is refused without create, and used once created', async () => {
    if (!(await enginesAvailable({ postgres: true }))) return;
    const schema = await createTestSchema('missing');
    schemas.push(schema);
    const config = loadConfig({ PROPS_DATABASE_URL: schema.url });
    await expect(openKeyAdmin(config, { create: false })).rejects.toBeInstanceOf(StoreMissingError);
    await (await openKeyAdmin(config, { create: true })).close();
    const reopened = await openKeyAdmin(config, { create: false });
    expect(await reopened.list()).toEqual([]);
    await reopened.close();
  });

  it('describes PostgreSQL by host and database, never with its password', () => {
    expect(
      describeStore({ dataDir: '.', databaseUrl: 'postgres://app:s3cret@db.internal:5432/props?sslmode=require' }),
    ).toBe('PostgreSQL db.internal:5432/props as app');
  });
});
