import type { Kysely, Migration } from 'kysely';

/**
 * The stream's event log: every board change the stream sent (version, the version it was
 * computed from, the board's fetchedAt, its event count) and each event with what the views
 * filter on and its JSON as the views render it, so a client resuming from an id older than
 * the in-memory window gets the same events with the same ids and bytes. Kept for
 * PROPS_STREAM_LOG_HOURS. Portable SQL: SQLite and PostgreSQL. Times are epoch ms.
 */
export const streamLog: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('stream_changes')
      .addColumn('version', 'bigint', (c) => c.primaryKey())
      .addColumn('previous_version', 'bigint', (c) => c.notNull())
      .addColumn('fetched_at', 'bigint', (c) => c.notNull())
      .addColumn('events', 'integer', (c) => c.notNull())
      .execute();
    // Pruning by age.
    await db.schema.createIndex('stream_changes_fetched_at').on('stream_changes').column('fetched_at').execute();
    await db.schema
      .createTable('stream_events')
      .addColumn('version', 'bigint', (c) => c.notNull())
      .addColumn('idx', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('sport', 'text', (c) => c.notNull())
      /** `|id|alias|…|`: the game's id and aliases, each between bars. */
      .addColumn('game_ids', 'text', (c) => c.notNull())
      /** 0 or 1: SQLite has no boolean. */
      .addColumn('live', 'integer', (c) => c.notNull())
      .addColumn('stat', 'text')
      /** normalizeName of the player. */
      .addColumn('player', 'text')
      .addColumn('json', 'text', (c) => c.notNull())
      /** The JSON views with edges get, when it differs from `json`. */
      .addColumn('json_edges', 'text')
      .addPrimaryKeyConstraint('stream_events_pk', ['version', 'idx'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('stream_events').execute();
    await db.schema.dropTable('stream_changes').execute();
  },
};
