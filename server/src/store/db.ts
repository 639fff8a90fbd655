/**
 * One query layer (Kysely) over both engines: SQLite embedded by default, PostgreSQL when
 * PROPS_DATABASE_URL is set. Migrations are versioned modules applied at start-up.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
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
   * SQLite: checkpoint the WAL from a thread of its own (the server, which writes all day);
   * else the write that fills the WAL checkpoints it, holding the event loop 0.1 s or more.
   */
  checkpointInBackground?: boolean;
}

/** Opens the store the configuration names and applies pending migrations. */
export async function openDb<Schema = unknown>(opts: OpenDbOptions): Promise<Db<Schema>> {
  const db = opts.databaseUrl
    ? openPostgres<Schema>(opts.databaseUrl)
    : openSqlite<Schema>(opts.dataDir, opts.checkpointInBackground ?? false);
  await migrate(db.kysely as Kysely<unknown>, db.engine);
  return db;
}

/**
 * better-sqlite3 for the running Node. 13 is built on Node-API 10 (Node 22.14+ and 24) and ships
 * its binaries; 12 (the optional dependency `better-sqlite3-12`) is what older Node (20) loads,
 * and only that: built against Node 24.19+ headers, a garbage collection outside JavaScript that
 * frees one of its statements aborts the process (node::ObjectWrap's new cleanup hook;
 * WiseLibs/better-sqlite3#1515, not fixed in 12).
 */
export function loadSqlite(napiVersion = process.versions.napi): typeof BetterSqlite3 {
  const requireHere = createRequire(import.meta.url);
  if (Number(napiVersion) >= 10) return requireHere(sqliteModule(napiVersion));
  try {
    return requireHere(sqliteModule(napiVersion));
  } catch (err) {
    throw new Error(
      `SQLite for Node ${process.versions.node} needs better-sqlite3-12 (an optional dependency of @propsfeed/server), ` +
        `which could not be loaded: reinstall @propsfeed/server or use Node 22 or 24. (${err instanceof Error ? err.message : String(err)})`,
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
  const file = join(dir, 'propsfeed.db');
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
