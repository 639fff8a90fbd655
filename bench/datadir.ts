/**
 * `pnpm bench:datadir`: how fast `props serve` grows its data dir, and how busy its API thread
 * is with no request. Runs `props serve` (the CLI, from sources) on a fresh data dir with the
 * simulated world started at a chosen instant (--sim-time, default the busiest evening), lets
 * the start-up backfill settle, then for N minutes samples each SQLite table's size (dbstat:
 * its rows and indexes), the data dir's files (WAL included) and the API thread's CPU (the
 * main thread only, from /proc: the simulated books' worker thread and libuv's pool are not
 * counted). Prints MB/h per table and in total, and a bound on the size after 24 hours: each
 * table's rate times the hours it is kept (24 where nothing prunes it), game logs at
 * --game-log-rows rows, plus the free pages and the WAL: SQLite never shrinks its file when
 * rows are deleted (without a VACUUM), it reuses the freed pages, so the file holds at most
 * the most its live rows ever held, and the free pages now are counted as they are.
 * Run: `pnpm bench:datadir [--sim-time 2026-11-22T01:30:00Z] [--minutes 5] [--settle 60] [--port 8881] [--game-log-rows 300000]`.
 * Goals (issue #30): ≤ 100 MB/h at the busiest hour, ≤ 500 MB after 24 hours, API thread ≤ 5 % of a core.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadSqlite } from '@propsfeed/server/store';
import { cpuSecondsOf, mainThreadCpuSecondsOf } from './process';

const { values: args } = parseArgs({
  options: {
    'sim-time': { type: 'string', default: '2026-11-22T01:30:00Z' },
    minutes: { type: 'string', default: '5' },
    settle: { type: 'string', default: '60' },
    port: { type: 'string', default: '8881' },
    'keep-dir': { type: 'boolean', default: false },
    'game-log-rows': { type: 'string', default: '300000' },
  },
});
const MINUTES = Number(args.minutes);
const SETTLE_S = Number(args.settle);
const CLI = fileURLToPath(new URL('../cli/src/main.ts', import.meta.url));
const LOOP_DELAY = fileURLToPath(new URL('./loopDelay.ts', import.meta.url));
const MB = 1024 * 1024;

/**
 * How many hours each table keeps at most with the defaults (docs/server.md's settings
 * table); absent: nothing prunes it within a day, so 24 hours of it are counted. Line history
 * (line_points, history_props) is pruned PROPS_HISTORY_DAYS (default 1) after its game ends,
 * and a line is written from its open (a day or more before the game) to the end: no row
 * written in the busiest hour is pruned within 24 hours, so it counts 24 of them too. The
 * pruning bounds the days after (about open-to-end plus PROPS_HISTORY_DAYS of writes).
 */
const RETAINED_HOURS: Record<string, number> = {
  stream_changes: 2,
  stream_records: 2,
};

/**
 * Tables the bound counts at a size of their own rather than at their growth: game logs grow
 * by a day's finals (none at the busy hour), and hold the simulator's backfill of each
 * player's past games; counted at this many rows (about 40 past games a player).
 */
const GAME_LOG_ROWS = Number(args['game-log-rows']);
/**
 * Tables that grow by a day's games whatever the hour (new lines' props as they open, games,
 * locks at each start), not at the busy hour's rate: counted at twice their size after the
 * backfill (its day and the next), or their rate's 24 hours if more.
 */
const DAILY_TABLES = new Set(['history_props', 'history_games', 'prop_locks']);

if (!Number.isFinite(MINUTES) || MINUTES <= 0 || !Number.isFinite(SETTLE_S) || SETTLE_S < 0) {
  process.stderr.write('--minutes must be a positive number and --settle a number of seconds\n');
  process.exit(2);
}

/** The main thread's (the API thread's) and the whole process's CPU seconds so far (Linux /proc). */
function cpuNow(pid: number): { main: number; all: number } {
  const main = mainThreadCpuSecondsOf(pid);
  const all = cpuSecondsOf(pid);
  if (main === undefined || all === undefined) throw new Error(`cannot read /proc/${pid}: this benchmark needs Linux`);
  return { main, all };
}

/**
 * Bytes per table (its rows and its indexes), from SQLite's dbstat, with the free pages (as
 * `(free pages)`) and game_logs' row count.
 */
function tableBytes(dbFile: string): { bytes: Map<string, number>; free: number; gameLogRows: number } {
  const Database = loadSqlite();
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `select coalesce(m.tbl_name, s.name) as tbl, sum(s.pgsize) as bytes
           from dbstat s left join sqlite_master m on m.name = s.name group by tbl`,
      )
      .all() as { tbl: string; bytes: number }[];
    const free =
      (db.pragma('freelist_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    const gameLogRows = (db.prepare('select count(*) as n from game_logs').get() as { n: number }).n;
    return { bytes: new Map(rows.map((r) => [r.tbl, r.bytes])), free, gameLogRows };
  } finally {
    db.close();
  }
}

function dirBytes(dir: string): Map<string, number> {
  return new Map(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).size]));
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const mb = (bytes: number) => (bytes / MB).toFixed(1);

const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-datadir-'));
const child = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    '--import',
    LOOP_DELAY,
    CLI,
    'serve',
    '--port',
    String(args.port),
    '--sim-time',
    String(args['sim-time']),
  ],
  { env: { ...process.env, PROPS_DATA_DIR: dataDir, PROPS_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
);
const stop = () => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
let out = '';
child.stdout?.on('data', (d) => {
  out += String(d);
});
/** The API thread's event loop delays (loopDelay.ts), while measuring. */
let measuring = false;
const delays: { max: number; p99: number }[] = [];
child.stderr?.on('data', (d) => {
  for (const line of String(d).split('\n')) {
    const m = /^loop-delay max=([\d.]+) p99=([\d.]+)/.exec(line);
    if (m) {
      if (measuring) delays.push({ max: Number(m[1]), p99: Number(m[2]) });
    } else if (line.trim() !== '') process.stderr.write(`${line}\n`);
  }
});
const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

try {
  const started = Date.now();
  await Promise.race([
    new Promise<void>((resolve) => {
      const check = setInterval(() => {
        // The start-up's board line, as text or as a JSON line's message.
        if (/(^|"msg":")board: /m.test(out)) {
          clearInterval(check);
          resolve();
        }
      }, 100);
    }),
    exited.then((code) => {
      throw new Error(`props serve exited with ${code}: ${out}`);
    }),
  ]);
  const pid = child.pid as number;
  process.stdout.write(
    `props serve at simulated ${args['sim-time']}: started in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
      `(backfill included), data dir ${mb(sum(dirBytes(dataDir)))} MB; settling ${SETTLE_S} s\n`,
  );
  await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
  const dbFile = join(dataDir, 'propsfeed.db');
  const t0 = { at: Date.now(), tables: tableBytes(dbFile), files: dirBytes(dataDir) };
  const cpu0 = cpuNow(pid);
  measuring = true;
  const samples: number[] = [];
  const end = t0.at + MINUTES * 60_000;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, Math.min(30_000, end - Date.now())));
    samples.push(sum(dirBytes(dataDir)));
    process.stdout.write(
      `  ${((Date.now() - t0.at) / 60_000).toFixed(1)} min: data dir ${mb(samples.at(-1) ?? 0)} MB\n`,
    );
  }
  const elapsedS = (Date.now() - t0.at) / 1000;
  const cpu1 = cpuNow(pid);
  const t1 = { tables: tableBytes(dbFile), files: dirBytes(dataDir) };
  const perHour = (bytes: number) => (bytes / elapsedS) * 3600;
  const names = [...new Set([...t0.tables.bytes.keys(), ...t1.tables.bytes.keys()])].sort();
  process.stdout.write(`\nover ${(elapsedS / 60).toFixed(1)} min (simulated from about ${args['sim-time']} on):\n`);
  process.stdout.write(
    `${'table'.padEnd(24)}${'now MB'.padStart(10)}${'MB/h'.padStart(10)}${'24 h MB'.padStart(10)}\n`,
  );
  let bound = 0;
  const row = (name: string, now: number, rate: number | undefined, atDay: number) =>
    process.stdout.write(
      `${name.padEnd(24)}${mb(now).padStart(10)}${(rate === undefined ? '' : mb(rate)).padStart(10)}${mb(atDay).padStart(10)}\n`,
    );
  for (const name of names) {
    const now = t1.tables.bytes.get(name) ?? 0;
    const rate = perHour(now - (t0.tables.bytes.get(name) ?? 0));
    const hours = RETAINED_HOURS[name] ?? 24;
    // A table pruned to `hours` holds at most that many hours of its busiest rate; else 24 of them.
    let atDay = Math.max(now, Math.max(0, rate) * hours + (RETAINED_HOURS[name] ? 0 : now));
    if (DAILY_TABLES.has(name)) atDay = Math.max(atDay, 2 * now);
    if (name === 'game_logs' && t1.tables.gameLogRows > 0) {
      atDay = Math.max(atDay, (now / t1.tables.gameLogRows) * GAME_LOG_ROWS);
    }
    bound += atDay;
    if (now < 64 * 1024 && Math.abs(rate) < 64 * 1024) continue;
    row(name === 'game_logs' ? `game_logs (${Math.round(GAME_LOG_ROWS / 1000)}k rows)` : name, now, rate, atDay);
  }
  // Freed pages are reused before the file grows: counted as they are now.
  bound += t1.tables.free;
  row('(free pages)', t1.tables.free, perHour(t1.tables.free - t0.tables.free), t1.tables.free);
  // The WAL is cut back to 16 MB after each checkpoint (journal_size_limit): counted at that, or more if it is now.
  const besideDb = Math.max(
    16 * MB,
    [...t1.files].filter(([f]) => f !== 'propsfeed.db').reduce((a, [, b]) => a + b, 0),
  );
  bound += besideDb;
  row('(WAL and shm files)', besideDb, undefined, besideDb);
  const filesRate = perHour(sum(t1.files) - sum(t0.files));
  process.stdout.write(
    `${'data dir (files)'.padEnd(24)}${mb(sum(t1.files)).padStart(10)}${mb(filesRate).padStart(10)}${mb(bound).padStart(10)}\n`,
  );
  process.stdout.write(
    `  files: ${[...t1.files].map(([f, b]) => `${f} ${mb(b)} MB`).join(', ')}\n` +
      `API thread CPU with no request: ${(((cpu1.main - cpu0.main) / elapsedS) * 100).toFixed(1)} % of a core ` +
      `(whole process, simulated books' thread and libuv's pool included: ${(((cpu1.all - cpu0.all) / elapsedS) * 100).toFixed(1)} %)\n` +
      `API thread's event loop held at most ${Math.max(0, ...delays.map((d) => d.max)).toFixed(1)} ms ` +
      `(worst 10 s p99 ${Math.max(0, ...delays.map((d) => d.p99)).toFixed(1)} ms; perf_hooks monitorEventLoopDelay)\n`,
  );
} finally {
  stop();
  await exited;
  if (!args['keep-dir']) rmSync(dataDir, { recursive: true, force: true });
  else process.stdout.write(`data dir kept: ${dataDir}\n`);
}
