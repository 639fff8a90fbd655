/**
 * One query layer (Kysely) over both engines: SQLite embedded by default, PostgreSQL when
 * PROPS_DATABASE_URL is set. Migrations are versioned modules applied at start-up.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, type Migration, type MigrationProvider, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations';

export type Engine = 'sqlite' | 'postgres';

export interface Db<Schema = unknown> {
  engine: Engine;
  kysely: Kysely<Schema>;
  close(): Promise<void>;
}

export interface OpenDbOptions {
  /** PostgreSQL URL; when absent, SQLite in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /**
   * Whether a store that does not exist yet may be created (default true: what `props serve`
   * does). False for the admin commands, which throw StoreMissingError instead of working on a
   * new, empty store the server never reads.
   */
  create?: boolean;
}

const SQLITE_FILE = 'propsfeed.db';

/** Which store the options name, for a person: the SQLite file, or PostgreSQL's host and database (never its password). */
export function describeStore(opts: Pick<OpenDbOptions, 'databaseUrl' | 'dataDir'>): string {
  if (!opts.databaseUrl) return `SQLite ${join(resolve(opts.dataDir), SQLITE_FILE)}`;
  try {
    const url = new URL(opts.databaseUrl);
    return `PostgreSQL ${url.host}${url.pathname}${url.username ? ` as ${decodeURIComponent(url.username)}` : ''}`;
  } catch {
    return 'PostgreSQL (PROPS_DATABASE_URL)';
  }
}

/** The store named does not exist, and the caller did not ask to create one. */
export class StoreMissingError extends Error {
  constructor(readonly store: string) {
    super(
      `There is no propsfeed store at ${store}. Point PROPS_DATA_DIR (or PROPS_DATABASE_URL) at the store your ` +
        'server uses, or pass --init to create a new, empty one there.',
    );
    this.name = 'StoreMissingError';
  }
}

/** Opens the store the configuration names and applies pending migrations. */
export async function openDb<Schema = unknown>(opts: OpenDbOptions): Promise<Db<Schema>> {
  const create = opts.create ?? true;
  if (!create && !opts.databaseUrl && !existsSync(join(resolve(opts.dataDir), SQLITE_FILE))) {
    throw new StoreMissingError(describeStore(opts));
  }
  const db = opts.databaseUrl ? openPostgres<Schema>(opts.databaseUrl) : openSqlite<Schema>(opts.dataDir);
  try {
    if (!create && db.engine === 'postgres' && !(await hasMigrated(db.kysely as Kysely<unknown>))) {
      throw new StoreMissingError(describeStore(opts));
    }
    await migrate(db.kysely as Kysely<unknown>, db.engine);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

/** Whether the session's schema holds a store (Kysely's migration table): a database can be shared. */
async function hasMigrated(kysely: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{ found: string | null }>`select to_regclass('kysely_migration')::text as found`.execute(
    kysely,
  );
  return rows[0]?.found != null;
}

/**
 * better-sqlite3 for the running Node. 13 is built on Node-API 10 (Node 22.14+ and 24) and ships
 * its binaries; both are optional dependencies, so that npm leaves 13 out on Node 20 (its
 * engines) without a warning. 12 (`better-sqlite3-12`) is what older Node (20) loads,
 * and only that: built against Node 24.19+ headers, a garbage collection outside JavaScript that
 * frees one of its statements aborts the process (node::ObjectWrap's new cleanup hook;
 * WiseLibs/better-sqlite3#1515, not fixed in 12).
 */
export function loadSqlite(napiVersion = process.versions.napi): typeof BetterSqlite3 {
  const requireHere = createRequire(import.meta.url);
  if (Number(napiVersion) >= 10) {
    try {
      return requireHere('better-sqlite3');
    } catch (err) {
      throw new Error(
        `SQLite for Node ${process.versions.node} needs better-sqlite3 13 (an optional dependency of @propsfeed/server), ` +
          `which could not be loaded: reinstall @propsfeed/server. (${err instanceof Error ? err.message : String(err)})`,
      );
    }
  }
  try {
    return requireHere('better-sqlite3-12');
  } catch (err) {
    throw new Error(
      `SQLite for Node ${process.versions.node} needs better-sqlite3-12 (an optional dependency of @propsfeed/server), ` +
        `which could not be loaded: reinstall @propsfeed/server or use Node 22 or 24. (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

function openSqlite<Schema>(dataDir: string): Db<Schema> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const Database = loadSqlite();
  const sqlite = new Database(join(dir, SQLITE_FILE));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { engine: 'sqlite', kysely, close: () => kysely.destroy() };
}

function openPostgres<Schema>(url: string): Db<Schema> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A client losing its connection must not crash the process (PostgreSQL down or restarted):
  // idle clients report to the pool, checked-out ones to their own listener; the query in
  // flight reports the error to its caller either way.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const kysely = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return { engine: 'postgres', kysely, close: () => kysely.destroy() };
}

const provider: MigrationProvider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  },
};

async function migrate(kysely: Kysely<unknown>, engine: Engine): Promise<void> {
  // On PostgreSQL the migration tables live in the session's schema: Kysely's existence check
  // otherwise sees another schema's tables (deployments or test runs sharing one database).
  const migrationTableSchema =
    engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(kysely)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db: kysely, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  for (let attempt = 1; ; attempt++) {
    const { error } = await migrator.migrateToLatest();
    if (!error) return;
    // Kysely's table check reads every schema's catalog; another schema dropped at that moment
    // (PostgreSQL 3F000) is not ours: try again.
    if ((error as { code?: string }).code === '3F000' && attempt < 3) continue;
    throw error instanceof Error ? error : new Error(String(error));
  }
}
