import type { Kysely, Migration } from 'kysely';

/**
 * Line history (one row per change of a book's line or price; `line` null = pulled), the
 * games those lines belong to (with the merged game id, so any alias resolves), and player
 * game logs. Portable SQL: SQLite and PostgreSQL. Times are epoch ms.
 */
export const lineHistory: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('history_games')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('merged_id', 'text', (c) => c.notNull())
      .addColumn('book', 'text', (c) => c.notNull())
      .addColumn('sport', 'text', (c) => c.notNull())
      .addColumn('home_team', 'text', (c) => c.notNull())
      .addColumn('away_team', 'text', (c) => c.notNull())
      .addColumn('start_ms', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('history_games_merged').on('history_games').column('merged_id').execute();

    await db.schema
      .createTable('line_history')
      .addColumn('book', 'text', (c) => c.notNull())
      .addColumn('sport', 'text', (c) => c.notNull())
      .addColumn('game_id', 'text', (c) => c.notNull())
      .addColumn('player_key', 'text', (c) => c.notNull())
      .addColumn('player', 'text', (c) => c.notNull())
      .addColumn('team', 'text')
      .addColumn('stat', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('line', 'double precision')
      .addColumn('over_odds', 'integer')
      .addColumn('under_odds', 'integer')
      .execute();
    // One prop's changes in time order (history route); a sport's changes in time order (movers).
    await db.schema
      .createIndex('line_history_prop')
      .on('line_history')
      .columns(['game_id', 'player_key', 'stat', 'at'])
      .execute();
    await db.schema.createIndex('line_history_sport').on('line_history').columns(['sport', 'stat', 'at']).execute();

    await db.schema
      .createTable('game_logs')
      .addColumn('sport', 'text', (c) => c.notNull())
      .addColumn('player', 'text', (c) => c.notNull())
      .addColumn('player_key', 'text', (c) => c.notNull())
      .addColumn('team', 'text', (c) => c.notNull())
      .addColumn('opponent', 'text', (c) => c.notNull())
      .addColumn('home', 'integer', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('stat', 'text', (c) => c.notNull())
      .addColumn('value', 'double precision', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('game_logs_pk', ['sport', 'player_key', 'stat', 'date', 'opponent'])
      .execute();
    await db.schema.createIndex('game_logs_stat').on('game_logs').columns(['sport', 'stat', 'date']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('game_logs').execute();
    await db.schema.dropTable('line_history').execute();
    await db.schema.dropTable('history_games').execute();
  },
};
