import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * Line history by the byte: what a book line is (book, game, player, stat, names) is stored
 * once in `history_props`, and each of its changes as a short row of `line_points` (the prop's
 * id, time, line, prices) keyed by (prop, time), where 002 repeated the names in every row
 * and again in two indexes. `line_history` stays, as a view of the same columns, so plain SQL
 * reads it as before. `history_games.ended_ms`: when the game was first seen final, from
 * which its history is pruned (PROPS_HISTORY_DAYS). Portable SQL: SQLite and PostgreSQL.
 */
export const linePoints: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema.alterTable('history_games').addColumn('ended_ms', 'bigint').execute();
    await db.schema
      .createTable('history_props')
      // SQLite: the rowid itself; PostgreSQL: an identity column.
      .addColumn('id', postgres ? 'bigint' : 'integer', (c) =>
        postgres ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey(),
      )
      .addColumn('game_id', 'text', (c) => c.notNull())
      .addColumn('player_key', 'text', (c) => c.notNull())
      .addColumn('stat', 'text', (c) => c.notNull())
      .addColumn('book', 'text', (c) => c.notNull())
      .addColumn('sport', 'text', (c) => c.notNull())
      .addColumn('player', 'text', (c) => c.notNull())
      .addColumn('team', 'text')
      .addUniqueConstraint('history_props_key', ['game_id', 'player_key', 'stat', 'book'])
      .execute();
    // A sport's props (movers); a prop's history and pruning go by game (the unique key).
    await db.schema.createIndex('history_props_sport').on('history_props').columns(['sport', 'stat']).execute();
    // No rowid on SQLite: the key is the table, not a second copy of it.
    const points = db.schema
      .createTable('line_points')
      .addColumn('prop_id', 'bigint', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('line', 'double precision')
      .addColumn('over_odds', 'integer')
      .addColumn('under_odds', 'integer')
      .addPrimaryKeyConstraint('line_points_pk', ['prop_id', 'at']);
    await (postgres ? points : points.modifyEnd(sql`without rowid`)).execute();

    await sql`insert into history_props (game_id, player_key, stat, book, sport, player, team)
      select game_id, player_key, stat, book, max(sport), max(player), max(team)
      from line_history group by game_id, player_key, stat, book`.execute(db);
    // Two changes of one line in the same millisecond: the first is kept.
    await sql`insert into line_points (prop_id, at, line, over_odds, under_odds)
      select p.id, h.at, h.line, h.over_odds, h.under_odds
      from line_history h join history_props p
        on p.game_id = h.game_id and p.player_key = h.player_key and p.stat = h.stat and p.book = h.book
      on conflict do nothing`.execute(db);
    await db.schema.dropTable('line_history').execute();
    await db.schema
      .createView('line_history')
      .as(
        sql`select p.book, p.sport, p.game_id, p.player_key, p.player, p.team, p.stat, l.at, l.line, l.over_odds, l.under_odds
          from line_points l join history_props p on p.id = l.prop_id`,
      )
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropView('line_history').execute();
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
    await sql`insert into line_history
      select p.book, p.sport, p.game_id, p.player_key, p.player, p.team, p.stat, l.at, l.line, l.over_odds, l.under_odds
      from line_points l join history_props p on p.id = l.prop_id`.execute(db);
    await db.schema
      .createIndex('line_history_prop')
      .on('line_history')
      .columns(['game_id', 'player_key', 'stat', 'at'])
      .execute();
    await db.schema.createIndex('line_history_sport').on('line_history').columns(['sport', 'stat', 'at']).execute();
    await db.schema.dropTable('line_points').execute();
    await db.schema.dropTable('history_props').execute();
    await db.schema.alterTable('history_games').dropColumn('ended_ms').execute();
  },
};
