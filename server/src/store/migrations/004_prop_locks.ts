import type { Kysely, Migration } from 'kysely';

/**
 * Props as they stood when their game started (locked): per book, the closing line and the
 * chances the service published for it. Settlement joins them with the recorded final values
 * (game_logs), so results and the track record are read from the store, the same on every
 * replica and after a restart. Portable SQL: SQLite and PostgreSQL. Times are epoch ms.
 */
export const propLocks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('prop_locks')
      .addColumn('game_id', 'text', (c) => c.notNull())
      .addColumn('book', 'text', (c) => c.notNull())
      .addColumn('sport', 'text', (c) => c.notNull())
      .addColumn('player_key', 'text', (c) => c.notNull())
      .addColumn('player', 'text', (c) => c.notNull())
      .addColumn('stat', 'text', (c) => c.notNull())
      .addColumn('home_team', 'text', (c) => c.notNull())
      .addColumn('away_team', 'text', (c) => c.notNull())
      .addColumn('start_ms', 'bigint', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('line', 'double precision', (c) => c.notNull())
      .addColumn('p_over', 'double precision')
      .addColumn('p_under', 'double precision')
      .addColumn('p_push', 'double precision')
      .addColumn('basis', 'text', (c) => c.notNull())
      .addColumn('locked_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('prop_locks_pk', ['game_id', 'player_key', 'stat', 'book'])
      .execute();
    // A day's results by sport; the track record by sport, stat and day.
    await db.schema
      .createIndex('prop_locks_sport_stat_date')
      .on('prop_locks')
      .columns(['sport', 'stat', 'date'])
      .execute();
    await db.schema.createIndex('prop_locks_date').on('prop_locks').columns(['date']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('prop_locks').execute();
  },
};
