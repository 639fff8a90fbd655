/**
 * The stream's event log in the store, beside line history: every change the stream sent and
 * each of its events as the views render it (encode.ts's JSON, one copy per rendering), so a
 * client resuming from an id older than the in-memory window receives the same events, ids
 * and bytes an uninterrupted stream gave it. Stored by the megabyte: one Brotli-compressed
 * record per change and sport (the filter every view has), holding each event's JSON and what
 * the other filters read; a resume selects records by version and sport, and filters their
 * events as encode.ts does. Written where board versions are assigned: by the ingest worker
 * (on the shared engines the leader's), which renders each change once for the log and for
 * the API thread's streams (rendered.ts); by the hub where a feed runs on the API thread
 * (tests). One transaction per batch of changes; kept `retainMs` (PROPS_STREAM_LOG_HOURS).
 */

import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants as zlib } from 'node:zlib';
import { type Kysely, sql } from 'kysely';
import type { Db, Engine } from '../store/db';
import { schedulePruning } from '../store/pruning';
import type { BoardChange, ChangeEvent } from '../views/boardChanges';
import { minEdgeVerdict, renderingOf, type StreamEncoder, type StreamView } from './encode';
import { factsOf, gameIdsOf, type LoggedRow, loggedRows } from './rendered';
import type { StreamPosition } from './window';

interface StreamChangesTable {
  /** bigint: PostgreSQL returns it as a string. */
  version: number | string;
  previous_version: number | string;
  fetched_at: number | string;
  events: number;
}

/** One change's events of one sport (migration 010). */
interface StreamRecordsTable {
  version: number | string;
  sport: string;
  /** How many events the record holds. */
  events: number;
  /** Brotli of the JSON array of the events' LoggedRow (rendered.ts), in id order. */
  body: Buffer | Uint8Array;
}

interface StreamLogSchema {
  stream_changes: StreamChangesTable;
  stream_records: StreamRecordsTable;
}

export interface StreamLogOptions {
  /** How long changes are kept (PROPS_STREAM_LOG_HOURS). */
  retainMs: number;
  /** Most events kept, whatever their age (PROPS_STREAM_LOG_MAX_EVENTS): the newest changes holding at most this many. */
  maxEvents?: number;
  /** Whether this process writes the log: the feed's, or the ingest leader on the shared engines. */
  writes: () => boolean;
  now: () => number;
  /** How often changes older than `retainMs` are deleted: default every minute. */
  pruneEveryMs?: number;
  /** Changes waiting to be written at most; past it the oldest are dropped (resumes across them start over). */
  maxQueued?: number;
  /** Logged events a count scans between turns of the event loop: default 50,000 (about 15 ms on SQLite). */
  scanEvents?: number;
  onError?: (err: unknown) => void;
}

/** An event of the log as a view reads it. */
export interface LoggedEvent {
  version: number;
  index: number;
  /** Undefined when the view sends nothing for it (a minEdge view's judgment). */
  json: string | undefined;
}

/** Most events kept by default, whatever their age: a cap on the log's size (about 60 bytes an event compressed). */
export const DEFAULT_MAX_LOGGED_EVENTS = 2_000_000;

/**
 * Events rendered, and inserted, between turns of the event loop: a change of thousands of
 * events (many games live) is written without holding the loop more than a few milliseconds
 * at a time (SQLite inserts block it). Within the transaction nothing else uses its connection.
 */
const SLICE = 500;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

// Compressed and read back on libuv's thread pool, off the event loop.
const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);
/** Brotli quality 5: about 15× on the events' JSON at a fraction of the top qualities' CPU. */
const BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } };

async function rowsOf(body: Buffer | Uint8Array): Promise<LoggedRow[]> {
  return JSON.parse((await decompress(body)).toString('utf8')) as LoggedRow[];
}

/** Whether a view shows a logged event of one of its sports: encode.ts's gameMatches and propMatches. */
function shows(view: StreamView, row: LoggedRow): boolean {
  if (view.eventId !== null && !row[2].includes(gameIdsOf([view.eventId]))) return false;
  if (row[1] === 'game') return true;
  if (!view.kind.liveLines && row[3] === 1) return false;
  if (view.stats !== null && !view.stats.includes(row[4] as string)) return false;
  if (view.player !== null && row[5] !== view.player) return false;
  // A minEdge view sends a prop event only when its row meets the floor, or it showed the prop before.
  if (view.minEdge !== null && !(row[8] !== null && row[8] >= view.minEdge) && row[9] === null) return false;
  return true;
}

/** A change waiting to be written, and its events' rows (made as the write reaches them, or already made). */
interface QueuedChange {
  change: BoardChange;
  rowsOf: (from: number, to: number) => readonly LoggedRow[];
}

export class StreamLog {
  private readonly kysely: Kysely<StreamLogSchema>;
  private readonly engine: Engine;
  private queue: QueuedChange[] = [];
  private writing: Promise<void> | undefined;
  private readonly stopPruning: () => void;

  constructor(
    db: Db,
    private readonly opts: StreamLogOptions,
  ) {
    this.kysely = (db as unknown as Db<StreamLogSchema>).kysely;
    this.engine = db.engine;
    this.stopPruning = schedulePruning(() => this.prune(), {
      writes: opts.writes,
      everyMs: opts.pruneEveryMs,
      onError: opts.onError,
    });
  }

  /** A failed read of the log (the store down): the caller answers with a reset snapshot instead. */
  reportError(err: unknown): void {
    this.opts.onError?.(err);
  }

  /** Queues a change the stream sent; written after the current turn (the board's fan-out), off its path. */
  append(change: BoardChange, encoder: StreamEncoder): void {
    this.enqueue({ change, rowsOf: (from, to) => loggedRows(change, encoder, from, to) });
  }

  /** Queues a change whose rows are made already (the ingest worker sent them on with its board). */
  appendRendered(change: BoardChange, rows: readonly LoggedRow[]): void {
    this.enqueue({ change, rowsOf: (from, to) => rows.slice(from, to) });
  }

  private enqueue(queued: QueuedChange): void {
    if (!this.opts.writes()) return;
    this.queue.push(queued);
    const max = this.opts.maxQueued ?? 1_000;
    if (this.queue.length > max) this.queue.splice(0, this.queue.length - max);
    this.writing ??= this.drain();
  }

  private async drain(): Promise<void> {
    await nextTurn();
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.write(batch);
      } catch (err) {
        // These changes are missing from the log: a resume across them gets a reset snapshot.
        this.opts.onError?.(err);
      }
    }
    this.writing = undefined;
  }

  private async write(batch: readonly QueuedChange[]): Promise<void> {
    const changes: StreamChangesTable[] = [];
    const records: StreamRecordsTable[] = [];
    for (const { change, rowsOf } of batch) {
      changes.push({
        version: change.version,
        previous_version: change.previousVersion,
        fetched_at: change.board.fetchedAt,
        events: change.events.length,
      });
      const bySport = new Map<string, LoggedRow[]>();
      for (let from = 0; from < change.events.length; from += SLICE) {
        if (from > 0) await nextTurn();
        for (const row of rowsOf(from, Math.min(from + SLICE, change.events.length))) {
          const sport = (change.events[row[0] - 1] as ChangeEvent).game.sport;
          const rows = bySport.get(sport);
          if (rows) rows.push(row);
          else bySport.set(sport, [row]);
        }
      }
      for (const [sport, rows] of bySport) {
        // Stringified in slices (a busy change's JSON is megabytes), compressed off the loop.
        const parts: string[] = [];
        for (let i = 0; i < rows.length; i += SLICE) {
          if (i > 0) await nextTurn();
          parts.push(JSON.stringify(rows.slice(i, i + SLICE)).slice(1, -1));
        }
        const body = await compress(Buffer.from(`[${parts.join(',')}]`), BROTLI);
        records.push({ version: change.version, sport, events: rows.length, body });
      }
    }
    // A leader taking over may write a change its predecessor wrote: the same version is the same change.
    await this.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('stream_changes')
        .values(changes)
        .onConflict((oc) => oc.doNothing())
        .execute();
      for (const record of records) {
        await trx
          .insertInto('stream_records')
          .values(record)
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    });
  }

  /** Resolves once every change appended so far is written (or failed). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Stops pruning and waits for pending writes. */
  async close(): Promise<void> {
    this.stopPruning();
    await this.flush();
  }

  /** Deletes the changes (and their events) older than the retention, or past the most events kept; how many changes. */
  async prune(): Promise<number> {
    const cutoff = this.opts.now() - this.opts.retainMs;
    const old = await this.kysely
      .selectFrom('stream_changes')
      .select((eb) => eb.fn.max('version').as('version'))
      .where('fetched_at', '<', cutoff)
      .executeTakeFirst();
    // The newest change whose events, with those of every newer change, are more than kept.
    const newest = this.kysely
      .selectFrom('stream_changes')
      .select(['version', sql<number | string>`sum(events) over (order by version desc)`.as('total')])
      .as('newest');
    const over = await this.kysely
      .selectFrom(newest)
      .select('version')
      .where('total', '>', this.opts.maxEvents ?? DEFAULT_MAX_LOGGED_EVENTS)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    const through = Math.max(Number(old?.version ?? 0), Number(over?.version ?? 0));
    if (through === 0) return 0;
    return this.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('stream_records').where('version', '<=', through).execute();
      const result = await trx.deleteFrom('stream_changes').where('version', '<=', through).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /**
   * How far the log continues from `from` without a missing change, up to board `until`: the
   * version of the last change of that unbroken run; undefined when the log does not reach
   * `from` (older than kept, or never written). Reads the changes (a few numbers each) in pages.
   */
  async reachFrom(from: StreamPosition, until: number): Promise<number | undefined> {
    let last = from.version;
    if (from.index > 0) {
      const own = await this.kysely
        .selectFrom('stream_changes')
        .select('version')
        .where('version', '=', from.version)
        .executeTakeFirst();
      if (!own) return undefined;
    }
    const page = 5_000;
    for (;;) {
      const rows = await this.kysely
        .selectFrom('stream_changes')
        .select(['version', 'previous_version'])
        .where('version', '>', last)
        .where('version', '<=', until)
        .orderBy('version')
        .limit(page)
        .execute();
      for (const row of rows) {
        // A missing change: the run ends before it (or never starts, when `from`'s successor is missing).
        if (Number(row.previous_version) !== last) return last === from.version && from.index === 0 ? undefined : last;
        last = Number(row.version);
      }
      if (rows.length < page) return last;
    }
  }

  /**
   * How many events after `after` up to board `until` the view shows, counting at most `limit`
   * (past it, `limit + 1`). Counted over stretches of about `scanEvents` logged events, a turn
   * of the event loop between them: a sparse view scans the whole gap.
   */
  async countEvents(after: StreamPosition, until: number, view: StreamView, limit: number): Promise<number> {
    let total = 0;
    let from = after;
    for (;;) {
      await nextTurn();
      const start = from;
      const end = await this.stretchEnd(start, until);
      for await (const _ of this.shown(start, end, view)) {
        total++;
        if (total > limit) return total;
      }
      if (end >= until) return total;
      from = { version: end, index: 0 };
    }
  }

  /**
   * The logged events after `after` up to `end` of the view's sports that it shows, in id
   * order: the records read by version and sport, decompressed one change at a time.
   */
  private async *shown(
    after: StreamPosition,
    end: number,
    view: StreamView,
  ): AsyncGenerator<[version: number, row: LoggedRow]> {
    const records = await this.kysely
      .selectFrom('stream_records')
      .select(['version', 'body'])
      .where('version', after.index === 0 ? '>' : '>=', after.version)
      .where('version', '<=', end)
      .where('sport', 'in', [...view.sports])
      .orderBy('version')
      .execute();
    for (let i = 0; i < records.length; ) {
      const version = Number(records[i]?.version);
      const rows: LoggedRow[] = [];
      for (; i < records.length && Number(records[i]?.version) === version; i++) {
        rows.push(...(await rowsOf((records[i] as Pick<StreamRecordsTable, 'body'>).body)));
      }
      // A change's sports interleave: its events in id order.
      rows.sort((a, b) => a[0] - b[0]);
      const from = version === after.version ? after.index : 0;
      for (const row of rows) if (row[0] > from && shows(view, row)) yield [version, row];
    }
  }

  /**
   * Where the stretch of about `scanEvents` logged events after `after` ends: a change's
   * version, at most `until`, always past `after` (a change begun is read to its end).
   */
  private async stretchEnd(after: StreamPosition, until: number): Promise<number> {
    const page = 1_000;
    const rows = await this.kysely
      .selectFrom('stream_changes')
      .select(['version', 'events'])
      .where('version', after.index === 0 ? '>' : '>=', after.version)
      .where('version', '<=', until)
      .orderBy('version')
      .limit(page)
      .execute();
    let events = 0;
    for (const row of rows) {
      events += row.events;
      if (events >= (this.opts.scanEvents ?? 50_000)) return Number(row.version);
    }
    return rows.length === page ? Number(rows.at(-1)?.version) : until;
  }

  /**
   * The first `limit` events after `after` the view may show, within the next stretch of about
   * `scanEvents` logged events up to board `until` (a sparse view never scans the whole gap in
   * one call), in id order, as the view reads them (a minEdge view judges each as encode.ts
   * does, from the edges kept); `through`: where this read stopped, the next one starts after
   * it. Each read starts on a new turn of the event loop.
   */
  async events(
    after: StreamPosition,
    until: number,
    view: StreamView,
    limit: number,
  ): Promise<{ events: LoggedEvent[]; through: StreamPosition }> {
    await nextTurn();
    const edges = renderingOf(view.kind) === 'edges';
    const end = await this.stretchEnd(after, until);
    const events: LoggedEvent[] = [];
    let last: { version: number; index: number } | undefined;
    for await (const r of this.shown(after, end, view)) {
      const [version, row] = r;
      let json: string | undefined = (edges ? row[7] : null) ?? row[6];
      if (view.minEdge !== null && row[1] !== 'game') {
        const verdict = minEdgeVerdict(view, row[1] as 'prop' | 'prop.removed', factsOf(row));
        json = verdict === 'as-is' ? json : verdict === 'below' ? (row[10] ?? undefined) : undefined;
      }
      events.push({ version, index: row[0], json });
      last = { version, index: row[0] };
      if (events.length === limit) break;
    }
    const through = last && events.length === limit ? last : { version: end, index: 0 };
    return { events, through };
  }
}
