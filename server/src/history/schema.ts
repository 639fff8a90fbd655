/** The tables of migrations 002_line_history, 004_prop_locks and 013_line_points, as Kysely sees them, and one fast bulk insert. */
import { type Generated, type QueryExecutorProvider, sql } from 'kysely';
import type { Db, Engine } from '../store/db';

export interface HistoryGamesTable {
  id: string;
  merged_id: string;
  book: string;
  sport: string;
  home_team: string;
  away_team: string;
  /** bigint: PostgreSQL returns it as a string. */
  start_ms: number | string;
  /** When the game was first seen final; null while it is not (013). */
  ended_ms: number | string | null;
}

/** What a book line is, once (013): its changes are `line_points` rows naming its id. */
export interface HistoryPropsTable {
  /** Assigned by the store. */
  id: Generated<number | string>;
  game_id: string;
  player_key: string;
  stat: string;
  book: string;
  sport: string;
  player: string;
  team: string | null;
}

/** One change of a book line (013); `line` null records that it was pulled. */
export interface LinePointsTable {
  prop_id: number | string;
  at: number | string;
  line: number | null;
  over_odds: number | null;
  under_odds: number | null;
}

/** A view (013): line_points with their prop's columns, as the table 002 made held them. */
export interface LineHistoryTable {
  book: string;
  sport: string;
  game_id: string;
  player_key: string;
  player: string;
  team: string | null;
  stat: string;
  at: number | string;
  line: number | null;
  over_odds: number | null;
  under_odds: number | null;
}

export interface GameLogsTable {
  sport: string;
  player: string;
  player_key: string;
  team: string;
  opponent: string;
  /** 0 or 1: SQLite has no boolean. */
  home: number;
  date: string;
  stat: string;
  value: number;
  source: string;
}

/** A prop's book line as it stood when its game started, with the chances published for it. */
export interface PropLocksTable {
  game_id: string;
  book: string;
  sport: string;
  player_key: string;
  player: string;
  stat: string;
  home_team: string;
  away_team: string;
  start_ms: number | string;
  /** YYYY-MM-DD, the UTC day of the start (as game logs date a game). */
  date: string;
  line: number;
  p_over: number | null;
  p_under: number | null;
  p_push: number | null;
  basis: string;
  locked_at: number | string;
  /** The priced book's de-vigged over chance at this line at lock; null: none (012). */
  market_p_over: number | null;
}

export interface HistorySchema {
  history_games: HistoryGamesTable;
  line_history: LineHistoryTable;
  history_props: HistoryPropsTable;
  line_points: LinePointsTable;
  game_logs: GameLogsTable;
  prop_locks: PropLocksTable;
}

/** The shared store, typed with this concern's tables. */
export function historyDb(db: Db): Db<HistorySchema> {
  return db as unknown as Db<HistorySchema>;
}

/** Rows per statement: a few milliseconds of SQLite's (blocking) insert each, the JSON included. */
const BULK_CHUNK = 500;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Inserts many rows with one bound parameter per statement (the rows as JSON), which both
 * engines expand server-side: SQLite with json_each, PostgreSQL with json_populate_recordset.
 * Building a statement with a parameter per value costs more than the insert itself.
 * Returns the number of rows inserted (conflicting rows are skipped when `ignoreConflicts`).
 * Statements of BULK_CHUNK rows, a turn of the event loop between them: a board's thousands
 * of changes never hold the loop for more than a few milliseconds at a time.
 */
export async function bulkInsert<Row extends object>(
  kysely: QueryExecutorProvider,
  engine: Engine,
  table: string,
  rows: readonly Row[],
  opts: { ignoreConflicts?: boolean } = {},
): Promise<number> {
  const first = rows[0];
  if (!first) return 0;
  const columns = Object.keys(first);
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  const conflict = opts.ignoreConflicts ? sql` on conflict do nothing` : sql``;
  let inserted = 0;
  for (let i = 0; i < rows.length; i += BULK_CHUNK) {
    if (i > 0) await nextTurn();
    const json = JSON.stringify(rows.slice(i, i + BULK_CHUNK));
    const query =
      engine === 'sqlite'
        ? sql`insert into ${sql.table(table)} (${cols}) select ${sql.join(
            columns.map((c) => sql`json_extract(value, ${`$.${c}`})`),
          )} from json_each(${json}) where true${conflict}`
        : sql`insert into ${sql.table(table)} (${cols}) select ${cols} from json_populate_recordset(null::${sql.table(
            table,
          )}, ${json}::json)${conflict}`;
    const result = await query.execute(kysely);
    inserted += Number(result.numAffectedRows ?? 0);
  }
  return inserted;
}

/**
 * Inserts the rows not stored yet (a conflicting row is skipped) in one transaction, so a
 * batch lands whole or not at all: the game logs' and the locks' append. The number inserted.
 */
export async function insertNew<Row extends object>(
  db: Db<HistorySchema>,
  table: string,
  rows: readonly Row[],
): Promise<number> {
  if (rows.length === 0) return 0;
  return db.kysely.transaction().execute((trx) => bulkInsert(trx, db.engine, table, rows, { ignoreConflicts: true }));
}
