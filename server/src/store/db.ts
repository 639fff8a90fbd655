/**
 * One query layer (Kysely) over both engines: SQLite embedded by default, PostgreSQL when
 * PROPS_DATABASE_URL is set. Migrations are versioned modules applied at start-up.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import {
  type DatabaseIntrospector,
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresDialect,
  PostgresIntrospector,
  SqliteDialect,
  sql,
  type TableMetadata,
} from 'kysely';
import pg from 'pg';
import { migrations } from './migrations';

export type Engine = 'sqlite' | 'postgres';

/** A bigint column's value: PostgreSQL returns bigint columns as strings, SQLite as numbers. */
export const num = (v: number | string): number => Number(v);
/** A nullable bigint column's value (see `num`). */
export const numOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

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
   * SQLite: checkpoint the WAL from a thread of its own (the server, which writes all day);
   * else the write that fills the WAL checkpoints it, holding the event loop 0.1 s or more.
   */
  checkpointInBackground?: boolean;
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
  const db = opts.databaseUrl
    ? openPostgres<Schema>(opts.databaseUrl)
    : openSqlite<Schema>(opts.dataDir, opts.checkpointInBackground ?? false);
  try {
    if (!create && db.engine === 'postgres' && !(await hasMigrated(db.kysely as Kysely<unknown>))) {
      throw new StoreMissingError(describeStore(opts));
    }
    await migrate(db.kysely as Kysely<unknown>);
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
  const module = sqliteModule(napiVersion);
  try {
    return requireHere(module);
  } catch (err) {
    const needs =
      module === 'better-sqlite3'
        ? 'better-sqlite3 13 (an optional dependency of @propsfeed/server), which could not be loaded: reinstall @propsfeed/server.'
        : 'better-sqlite3-12 (an optional dependency of @propsfeed/server), which could not be loaded: reinstall @propsfeed/server or use Node 22 or 24.';
    throw new Error(
      `SQLite for Node ${process.versions.node} needs ${needs} (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

/** The better-sqlite3 package loadSqlite loads on this Node. */
function sqliteModule(napiVersion = process.versions.napi): string {
  return Number(napiVersion) >= 10 ? 'better-sqlite3' : 'better-sqlite3-12';
}

/** The most the SQLite WAL file keeps between checkpoints (it grows past it only within one). */
const WAL_LIMIT_BYTES = 16 * 1024 * 1024;
/** How often the background checkpointer copies the WAL into the database file. */
const CHECKPOINT_EVERY_MS = 2_000;

/**
 * The background checkpointer's code (plain JavaScript, run as an eval worker): its own
 * connection to the file, a PASSIVE checkpoint (it never waits for, nor blocks, the writer)
 * every `everyMs`; it posts 'failed' and stops on an error, and closes on any message.
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    clearInterval(timer);
    parentPort.postMessage('failed');
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Checkpoints `file`'s WAL from a worker thread; the main connection stops checkpointing.
 * Should the worker fail, the main connection checkpoints again (SQLite's default). Returns
 * its stop.
 */
function checkpointInBackground(sqlite: BetterSqlite3.Database, file: string): () => Promise<void> {
  const module = createRequire(import.meta.url).resolve(sqliteModule());
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    execArgv: [],
    workerData: { module, file, everyMs: CHECKPOINT_EVERY_MS },
  });
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');
  const fallBack = () => {
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  };
  worker.on('message', fallBack);
  worker.on('error', fallBack);
  const exited = new Promise<void>((done) => worker.once('exit', () => done()));
  return async () => {
    // Held open until it has closed its connection (unref'd, it would not keep the process up for that).
    worker.ref();
    worker.postMessage('close');
    await exited;
  };
}

function openSqlite<Schema>(dataDir: string, backgroundCheckpoints: boolean): Db<Schema> {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const Database = loadSqlite();
  const file = join(dir, SQLITE_FILE);
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  // The WAL is cut back to this after each checkpoint; else it keeps the size of its busiest stretch.
  sqlite.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
  const stopCheckpoints = backgroundCheckpoints ? checkpointInBackground(sqlite, file) : undefined;
  const kysely = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    engine: 'sqlite',
    kysely,
    async close() {
      await stopCheckpoints?.();
      // Closing the last connection checkpoints what is left.
      await kysely.destroy();
    },
  };
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
  const kysely = new Kysely<Schema>({ dialect: new SessionSchemaDialect({ pool }) });
  return { engine: 'postgres', kysely, close: () => kysely.destroy() };
}

/**
 * Kysely's PostgreSQL introspection reads every schema's catalog, column by column, and fails
 * (3F000) when another schema is dropped meanwhile: deployments and test runs share a database.
 * The store only asks which tables its own schema holds (the migrator's existence checks), so
 * the tables listed are the session's schema's alone.
 */
class SessionSchemaDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SessionSchemaIntrospector(db);
  }
}

class SessionSchemaIntrospector extends PostgresIntrospector {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    super(db);
    this.#db = db;
  }

  override async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, n.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')`.execute(this.#db);
    return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.kind === 'v', columns: [] }));
  }
}

const provider: MigrationProvider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  },
};

async function migrate(kysely: Kysely<unknown>): Promise<void> {
  // On PostgreSQL the migration tables are the session's schema's: unqualified names go there,
  // and the dialect's introspector lists that schema's tables alone (SessionSchemaDialect).
  const { error } = await new Migrator({ db: kysely, provider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
