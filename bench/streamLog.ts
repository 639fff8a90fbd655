/**
 * The stream event log on the seeded simulator (the world `props serve` runs): the simulated
 * books polled every 5 s over a stretch of virtual time, each board's change rendered and
 * appended to a SQLite log as the stream's hub does it. Prints events and bytes per hour (the
 * compressed records' and the store's file growth), and the writer's time per change beside the time
 * the board loop takes to build the board, to size PROPS_STREAM_LOG_HOURS.
 * Run: `node --import tsx bench/streamLog.ts [hours=3] [start=2026-11-26T00:00:00Z]`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Board } from '@propsfeed/server';
import { ADAPTERS } from '@propsfeed/server/books';
import { FeedCore, SILENT_LOGGER } from '@propsfeed/server/feed';
import { EntryBook, PropOdds } from '@propsfeed/server/model';
import { openDb } from '@propsfeed/server/store';
import { StreamEncoder, StreamLog } from '@propsfeed/server/stream';
import { boardChange, ViewRegistry } from '@propsfeed/server/views';
import { renderPrizePicks, renderUnderdog, SIM_SPORTS, SimWorld } from '@propsfeed/sim';
import { sql } from 'kysely';

const POLL_MS = 5_000;
const HOUR = 3_600_000;
const hours = Number(process.argv[2] ?? 3);
const start = Date.parse(process.argv[3] ?? '2026-11-26T00:00:00Z');

const dir = mkdtempSync(join(tmpdir(), 'propsfeed-bench-streamlog-'));
const db = await openDb({ dataDir: dir });
let t = start;
const log = new StreamLog(db, { retainMs: 100 * HOUR, writes: () => true, now: () => t, pruneEveryMs: HOUR });
const world = new SimWorld(20261122);
const core = new FeedCore({
  books: ['prizepicks', 'underdog'],
  logger: SILENT_LOGGER,
  retainMs: 30 * 60_000,
  now: () => t,
});
const views = new ViewRegistry(core, undefined, new PropOdds(new EntryBook()));
const encoder = new StreamEncoder(views);
const fileBytes = () =>
  ['propsfeed.db', 'propsfeed.db-wal'].reduce((n, f) => {
    try {
      return n + statSync(join(dir, f)).size;
    } catch {
      return n;
    }
  }, 0);

async function poll(at: number): Promise<Board> {
  t = at;
  for (const sport of SIM_SPORTS) {
    core.applyPart('prizepicks', sport.id, ADAPTERS.prizepicks.parse(renderPrizePicks(world, sport.id, at)), at);
  }
  core.applyPart('underdog', 'all', ADAPTERS.underdog.parse(renderUnderdog(world, at)), at);
  await core.commit(['prizepicks', 'underdog'], at, { notify: false, record: false });
  return core.current();
}

let previous = await poll(start - POLL_MS);
await log.flush();
await sql`checkpoint`.execute(db.kysely).catch(() => {});
const bytesBefore = fileBytes();
/** What the run did and the time it spent building boards and writing the log. */
const totals = { polls: 0, changes: 0, events: 0, boardMs: 0, writeMs: 0 };
/** Per change, the longest the writer held the event loop. */
const longestTurns: number[] = [];
for (let at = start; at < start + hours * HOUR; at += POLL_MS) {
  totals.polls++;
  const began = performance.now();
  const board = await poll(at);
  totals.boardMs += performance.now() - began;
  if (board.version === previous.version) continue;
  const change = boardChange(previous, board);
  previous = board;
  totals.changes++;
  totals.events += change.events.length;
  const wrote = performance.now();
  // The longest the writer holds the event loop: the widest gap between turns while it writes.
  let turn = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const at = performance.now();
    longest = Math.max(longest, at - turn);
    turn = at;
  }, 0);
  log.append(change, encoder);
  await log.flush();
  clearInterval(ticker);
  longestTurns.push(Math.max(longest, performance.now() - turn));
  totals.writeMs += performance.now() - wrote;
}
await log.close();
const k = db.kysely;
const stored = await sql<{ compressed: number | string; records: number | string }>`
  select sum(length(body)) as compressed, count(*) as records from stream_records`.execute(k);
const row = stored.rows[0];
const fileGrowth = fileBytes() - bytesBefore;
await db.close();
rmSync(dir, { recursive: true, force: true });

const quantile = (q: number) => {
  const sorted = [...longestTurns].sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
};
const perHour = (n: number) => Math.round(n / hours);
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
console.log(
  `stream log on the simulator, seed 20261122, ${hours} h from ${new Date(start).toISOString()}, a poll every ${POLL_MS / 1000} s`,
);
console.log(
  `  changes ${totals.changes} (${perHour(totals.changes)}/h), events ${totals.events} (${perHour(totals.events)}/h)`,
);
console.log(
  `  ${perHour(Number(row?.records ?? 0))} records/h (a change's events of one sport each), ${mb(Number(row?.compressed ?? 0) / hours)}/h compressed (${(Number(row?.compressed ?? 0) / Math.max(1, totals.events)).toFixed(0)} bytes an event); SQLite file growth ${mb(fileGrowth / hours)}/h`,
);
console.log(
  `  a poll's board built in ${(totals.boardMs / totals.polls).toFixed(1)} ms; a change's events rendered and written to the log in ${(totals.writeMs / Math.max(1, totals.changes)).toFixed(1)} ms (after the fan-out, off the board loop), holding the event loop at most ${quantile(0.5)} ms at a time (median change), ${quantile(0.99)} ms (p99), ${quantile(1)} ms (max)`,
);
