/**
 * The stream's event log in the store, beside line history: every change the stream sent and
 * each of its events as the views render it (encode.ts's JSON, one copy per rendering), so a
 * client resuming from an id older than the in-memory window receives the same events, ids
 * and bytes an uninterrupted stream gave it. Written where board versions are assigned (the
 * feed's process; on the shared engines the ingest leader), after the board's fan-out, one
 * transaction per batch of changes; kept `retainMs` (PROPS_STREAM_LOG_HOURS).
 */

import type { SportId } from '@propsfeed/contract';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { normalizeName } from '../books/names';
import { bulkInsert } from '../history/schema';
import type { Db, Engine } from '../store/db';
import type { BoardChange, ChangeEvent } from '../views/boardChanges';
import {
  type EdgeFacts,
  minEdgeVerdict,
  RENDERING_KINDS,
  removedJson,
  renderingOf,
  type StreamEncoder,
  type StreamView,
} from './encode';
import type { StreamPosition } from './window';

interface StreamChangesTable {
  /** bigint: PostgreSQL returns it as a string. */
  version: number | string;
  previous_version: number | string;
  fetched_at: number | string;
  events: number;
}

interface StreamEventsTable {
  version: number | string;
  /** 1-based: the k of the event id `N.k`. */
  idx: number;
  kind: string;
  sport: string;
  game_ids: string;
  live: number;
  stat: string | null;
  player: string | null;
  json: string;
  json_edges: string | null;
  /** The new row's edge (prop events with one). */
  edge: number | null;
  /** JSON of the prop before the change (LoggedBefore), when its game was on the previous board and its row had an edge. */
  before: string | null;
  /** The prop.removed JSON a minEdge view sends when the edge fell below its floor, where that can happen. */
  json_below: string | null;
}

/** The prop before a change as the log keeps it: what minEdgeVerdict reads. */
interface LoggedBefore {
  ids: string[];
  sport: SportId;
  live: boolean;
  player: string;
  stat: string;
  edge: number | null;
}

interface StreamLogSchema {
  stream_changes: StreamChangesTable;
  stream_events: StreamEventsTable;
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

/** Most events kept by default: about 1.5 GB of SQLite, an hour and a quarter of the simulator's busiest hour. */
export const DEFAULT_MAX_LOGGED_EVENTS = 2_000_000;

function loggedBefore(before: NonNullable<EdgeFacts['before']>): LoggedBefore {
  const { game, prop, edge } = before;
  return {
    ids: [game.id, ...game.aliases],
    sport: game.sport,
    live: game.live,
    player: prop.player,
    stat: prop.stat,
    edge: edge ?? null,
  };
}

/** The edge facts of a logged event, as the encoder judged them when it was sent. */
function factsOf(row: Pick<StreamEventsTable, 'edge' | 'before'>): EdgeFacts {
  const before = row.before === null ? undefined : (JSON.parse(row.before) as LoggedBefore);
  return {
    now: row.edge ?? undefined,
    before: before && {
      game: { id: before.ids[0] as string, aliases: before.ids.slice(1), sport: before.sport, live: before.live },
      prop: { player: before.player, stat: before.stat },
      edge: before.edge ?? undefined,
    },
  };
}

/**
 * Events rendered, and inserted, between turns of the event loop: a change of thousands of
 * events (many games live) is written without holding the loop more than a few milliseconds
 * at a time (SQLite inserts block it). Within the transaction nothing else uses its connection.
 */
const SLICE = 500;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

const gameIdsOf = (ids: readonly string[]) => `|${ids.join('|')}|`;

export class StreamLog {
  private readonly kysely: Kysely<StreamLogSchema>;
  private readonly engine: Engine;
  private queue: { change: BoardChange; encoder: StreamEncoder }[] = [];
  private writing: Promise<void> | undefined;
  private readonly pruner: NodeJS.Timeout;

  constructor(
    db: Db,
    private readonly opts: StreamLogOptions,
  ) {
    this.kysely = (db as unknown as Db<StreamLogSchema>).kysely;
    this.engine = db.engine;
    this.pruner = setInterval(() => {
      if (this.opts.writes()) this.prune().catch((err) => this.opts.onError?.(err));
    }, opts.pruneEveryMs ?? 60_000);
    this.pruner.unref();
  }

  /** A failed read of the log (the store down): the caller answers with a reset snapshot instead. */
  reportError(err: unknown): void {
    this.opts.onError?.(err);
  }

  /** Queues a change the stream sent; written after the current turn (the board's fan-out), off its path. */
  append(change: BoardChange, encoder: StreamEncoder): void {
    if (!this.opts.writes()) return;
    this.queue.push({ change, encoder });
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

  private async write(batch: readonly { change: BoardChange; encoder: StreamEncoder }[]): Promise<void> {
    const changes: StreamChangesTable[] = [];
    const events: StreamEventsTable[] = [];
    for (const { change, encoder } of batch) {
      changes.push({
        version: change.version,
        previous_version: change.previousVersion,
        fetched_at: change.board.fetchedAt,
        events: change.events.length,
      });
      for (let i = 0; i < change.events.length; i++) {
        if (i > 0 && i % SLICE === 0) await nextTurn();
        const event = change.events[i] as ChangeEvent;
        const json = encoder.eventJson(change, RENDERING_KINDS.plain, i);
        const edges = event.kind === 'prop' ? encoder.eventJson(change, RENDERING_KINDS.edges, i) : json;
        const prop = event.kind === 'game' ? undefined : event.prop;
        const facts = encoder.edgeFacts(change, i);
        // A prop without an edge before was shown by no minEdge view: nothing to keep of it.
        const before = facts?.before?.edge === undefined ? undefined : facts.before;
        // A view can have shown it before and no longer: when its edge was and is now lower or gone.
        const canFall =
          event.kind === 'prop' && before?.edge !== undefined && (facts?.now === undefined || facts.now < before.edge);
        events.push({
          version: change.version,
          idx: i + 1,
          kind: event.kind,
          sport: event.game.sport,
          game_ids: gameIdsOf([event.game.id, ...event.game.aliases]),
          live: event.game.live ? 1 : 0,
          stat: prop?.stat ?? null,
          player: prop ? normalizeName(prop.player) : null,
          json,
          json_edges: edges === json ? null : edges,
          edge: facts?.now ?? null,
          before: before ? JSON.stringify(loggedBefore(before)) : null,
          json_below: canFall && prop ? removedJson(event.game, prop, 'below_min_edge') : null,
        });
      }
    }
    // A leader taking over may write a change its predecessor wrote: the same version is the same change.
    await this.kysely.transaction().execute(async (trx) => {
      await bulkInsert(trx, this.engine, 'stream_changes', changes, { ignoreConflicts: true });
      for (let i = 0; i < events.length; i += SLICE) {
        if (i > 0) await nextTurn();
        await bulkInsert(trx, this.engine, 'stream_events', events.slice(i, i + SLICE), { ignoreConflicts: true });
      }
    });
  }

  /** Resolves once every change appended so far is written (or failed). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Stops pruning and waits for pending writes. */
  async close(): Promise<void> {
    clearInterval(this.pruner);
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
      await trx.deleteFrom('stream_events').where('version', '<=', through).execute();
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
   * of the event loop between them: a sparse view scans the whole gap, which SQLite would
   * otherwise do in one blocking call (0.3 s for half an hour of the busiest board).
   */
  async countEvents(after: StreamPosition, until: number, view: StreamView, limit: number): Promise<number> {
    let total = 0;
    let from = after;
    for (;;) {
      await nextTurn();
      const start = from;
      const end = await this.stretchEnd(start, until);
      const matching = this.kysely
        .selectFrom('stream_events')
        .select(sql<number>`1`.as('one'))
        .where((eb) => this.matches(eb, start, end, view))
        .limit(limit + 1 - total)
        .as('matching');
      const row = await this.kysely
        .selectFrom(matching)
        .select(sql<number | string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      total += Number(row.n);
      if (total > limit || end >= until) return total;
      from = { version: end, index: 0 };
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
    const rows = await this.kysely
      .selectFrom('stream_events')
      .select(['version', 'idx', 'kind', 'sport', 'stat', 'json', 'json_edges', 'edge', 'before', 'json_below'])
      .where((eb) => this.matches(eb, after, end, view))
      .orderBy('version')
      .orderBy('idx')
      .limit(limit)
      .execute();
    const last = rows.at(-1);
    const through =
      last && rows.length === limit ? { version: Number(last.version), index: last.idx } : { version: end, index: 0 };
    const events = rows.map((r) => {
      let json: string | undefined = (edges ? r.json_edges : null) ?? r.json;
      if (view.minEdge !== null && r.kind !== 'game') {
        const verdict = minEdgeVerdict(view, r.kind as 'prop' | 'prop.removed', factsOf(r));
        json = verdict === 'as-is' ? json : verdict === 'below' ? (r.json_below ?? undefined) : undefined;
      }
      return { version: Number(r.version), index: r.idx, json };
    });
    return { events, through };
  }

  /** The events after `after` up to `until` that the view shows: encode.ts's gameMatches and propMatches, in SQL. */
  private matches(
    eb: ExpressionBuilder<StreamLogSchema, 'stream_events'>,
    after: StreamPosition,
    until: number,
    view: StreamView,
  ) {
    const range = eb.and([
      after.index === 0
        ? eb('version', '>', after.version)
        : eb.or([
            eb('version', '>', after.version),
            eb.and([eb('version', '=', after.version), eb('idx', '>', after.index)]),
          ]),
      eb('version', '<=', until),
    ]);
    const game = [eb('sport', 'in', [...view.sports])];
    if (view.eventId !== null) {
      const needle = gameIdsOf([view.eventId]);
      const at =
        this.engine === 'sqlite' ? sql<number>`instr(game_ids, ${needle})` : sql<number>`strpos(game_ids, ${needle})`;
      game.push(eb(at, '>', 0));
    }
    const prop = [];
    if (!view.kind.liveLines) prop.push(eb('live', '=', 0));
    if (view.stats !== null) prop.push(eb('stat', 'in', [...view.stats]));
    if (view.player !== null) prop.push(eb('player', '=', view.player));
    // A minEdge view sends a prop event only when its row meets the floor, or it showed the prop before.
    if (view.minEdge !== null) prop.push(eb.or([eb('edge', '>=', view.minEdge), eb('before', 'is not', null)]));
    const shown = prop.length === 0 ? game : [...game, eb.or([eb('kind', '=', 'game'), eb.and(prop)])];
    return eb.and([range, ...shown]);
  }
}
