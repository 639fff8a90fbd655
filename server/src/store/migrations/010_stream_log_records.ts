import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * The stream's event log by the megabyte: one Brotli-compressed record per change and sport
 * (stream/log.ts's LoggedRow array) replaces a row per event. The changes logged before
 * are dropped with their events (a resume from them gets a reset snapshot, as one from
 * beyond the retention does). Portable SQL: SQLite and PostgreSQL.
 */
export const streamLogRecords: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema.dropTable('stream_events').execute();
    await sql`delete from stream_changes`.execute(db);
    await db.schema
      .createTable('stream_records')
      .addColumn('version', 'bigint', (c) => c.notNull())
      .addColumn('sport', 'text', (c) => c.notNull())
      .addColumn('events', 'integer', (c) => c.notNull())
      .addColumn('body', postgres ? sql`bytea` : sql`blob`, (c) => c.notNull())
      .addPrimaryKeyConstraint('stream_records_pk', ['version', 'sport'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('stream_records').execute();
  },
};
