/**
 * Stores in one PostgreSQL database, each in its own schema, open while other schemas come and
 * go: the migrator looks only at its own schema, so another schema dropped mid-check is no error.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/store/db';
import { createTestSchema, enginesAvailable, TEST_DATABASE_URL, uniqueName } from '../shared/engines';

/** Creates and drops schemas holding tables with serial columns until `stop` is set. */
async function churnSchemas(stop: { done: boolean }): Promise<number> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  let dropped = 0;
  try {
    while (!stop.done) {
      const schema = uniqueName('churn');
      await admin.query(`create schema ${schema}`);
      for (let i = 0; i < 5; i++) await admin.query(`create table ${schema}.t${i} (id serial primary key, v text)`);
      await admin.query(`drop schema ${schema} cascade`);
      dropped++;
    }
  } finally {
    await admin.end();
  }
  return dropped;
}

describe('migrating a PostgreSQL store while other schemas are dropped', () => {
  it('opens every store, whatever other schemas do meanwhile', async () => {
    if (!(await enginesAvailable({ postgres: true }))) return;
    const stop = { done: false };
    const churn = churnSchemas(stop);
    try {
      for (let i = 0; i < 20; i++) {
        const schema = await createTestSchema('migrate');
        try {
          const db = await openDb({ dataDir: '.', databaseUrl: schema.url });
          await db.close();
        } finally {
          await schema.drop();
        }
      }
    } finally {
      stop.done = true;
    }
    expect(await churn).toBeGreaterThan(0);
  }, 60_000);
});
