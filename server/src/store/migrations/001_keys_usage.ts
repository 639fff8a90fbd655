import type { Kysely, Migration } from 'kysely';

/** API keys (hashes only) and per-key daily usage. Portable SQL: SQLite and PostgreSQL. */
export const keysUsage: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_prefix', 'text', (c) => c.notNull().unique())
      .addColumn('tier', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('rpm', 'integer')
      .addColumn('rpd', 'bigint')
      .addColumn('scan_limit', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema
      .createTable('key_usage_daily')
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('key_usage_daily_pk', ['key_id', 'day'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('key_usage_daily').execute();
    await db.schema.dropTable('api_keys').execute();
  },
};
