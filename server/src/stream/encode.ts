/**
 * The stream's bytes. An event's JSON is made once per board change and view kind (tier),
 * and the SSE frames of one change for one view (kind × filter) once, as one buffer that
 * every connection of the view is written: never one JSON.stringify per client. A view with
 * minEdge shows a prop while its row's edge meets it, telling a prop that falls below as removed.
 */
import type { SportId, STREAM_REMOVED_REASONS } from '@propsfeed/contract';
import type { Board, BoardGame, BoardProp } from '../board/types';
import { normalizeName } from '../books/names';
import { type ViewKind, type ViewRegistry, viewKindOf } from '../views';
import type { BoardChange, ChangeEvent } from '../views/boardChanges';
import { gameOf } from '../views/encode';

/** What one stream shows: its tier's view of the board, narrowed by its filters. */
export interface StreamView {
  /** Tier × filter shape: streams with the same key get the same bytes. */
  key: string;
  kind: ViewKind & { key: string };
  delayMs: number;
  sports: readonly SportId[];
  stats: readonly string[] | null;
  eventId: string | null;
  /** normalizeName of the player asked for. */
  player: string | null;
  /** Only props whose row's edge is at least this (tiers with edges). */
  minEdge: number | null;
}

export function streamViewOf(view: Omit<StreamView, 'key'>): StreamView {
  const key = [
    view.kind.key,
    view.delayMs,
    view.sports.join(','),
    view.stats?.join(',') ?? '*',
    view.eventId ?? '*',
    view.player ?? '*',
    view.minEdge ?? '*',
  ].join('|');
  return { ...view, key };
}

/** What of a game and a prop the view's filters read. */
export type FilteredGame = Pick<BoardGame, 'id' | 'aliases' | 'sport' | 'live'>;
export type FilteredProp = Pick<BoardProp, 'player' | 'stat'>;

function gameMatches(view: StreamView, game: FilteredGame): boolean {
  if (!view.sports.includes(game.sport)) return false;
  return view.eventId === null || game.id === view.eventId || game.aliases.includes(view.eventId);
}

/** A prop the view shows: its game matches, it is not live for tiers without live lines, and the filters hold. */
export function propMatches(view: StreamView, game: FilteredGame, prop: FilteredProp): boolean {
  if (!gameMatches(view, game) || (game.live && !view.kind.liveLines)) return false;
  if (view.stats !== null && !view.stats.includes(prop.stat)) return false;
  return view.player === null || normalizeName(prop.player) === view.player;
}

function eventMatches(view: StreamView, event: ChangeEvent): boolean {
  return event.kind === 'game' ? gameMatches(view, event.game) : propMatches(view, event.game, event.prop);
}

/** Whether a row's edge meets the view's minEdge (every row meets none; a view without edges has none). */
function meetsMinEdge(view: StreamView, edge: number | undefined): boolean {
  if (view.minEdge === null) return true;
  return view.kind.edges === true && edge !== undefined && edge >= view.minEdge;
}

/** What decides how a minEdge view tells a prop event, judged once per change (and kept in the stream log). */
export interface EdgeFacts {
  /** The new row's edge (prop events; undefined when it has none). */
  now: number | undefined;
  /** The prop before the change, when its game was on the previous board under the same id: that game, the prop, its row's edge. */
  before: { game: FilteredGame; prop: FilteredProp; edge: number | undefined } | undefined;
}

/**
 * How a minEdge view tells a prop event: as the tier's view does, not at all, or as removed
 * below its floor. A prop the view shows is one whose row meets minEdge: on the new board for
 * a prop event, on the previous board for what it showed before (a pull is told only for a
 * prop it showed).
 */
export function minEdgeVerdict(
  view: StreamView,
  kind: 'prop' | 'prop.removed',
  facts: EdgeFacts,
): 'as-is' | 'nothing' | 'below' {
  if (kind === 'prop' && meetsMinEdge(view, facts.now)) return 'as-is';
  const { before } = facts;
  const shown = before !== undefined && propMatches(view, before.game, before.prop) && meetsMinEdge(view, before.edge);
  if (!shown) return 'nothing';
  return kind === 'prop' ? 'below' : 'as-is';
}

function previousOf(prop: BoardProp | undefined): string {
  if (!prop) return 'null';
  const previous: { line: number; overOdds?: number; underOdds?: number } = { line: prop.line };
  if (prop.overOdds !== undefined) previous.overOdds = prop.overOdds;
  if (prop.underOdds !== undefined) previous.underOdds = prop.underOdds;
  return JSON.stringify(previous);
}

/** `id:`-less frames (heartbeat, end) and framed events. */
export function frame(json: string, id?: string): string {
  return id === undefined ? `data: ${json}\n\n` : `id: ${id}\ndata: ${json}\n\n`;
}

/**
 * The frames of one change for one view, with where each starts: a resume mid-change is the
 * tail of the same bytes, so it gets exactly what the view was sent (edges judged once).
 */
interface ViewFrames {
  bytes: Buffer;
  /** The event number k (of id N.k) and byte offset of each frame, in order. */
  events: number[];
  offsets: number[];
}

/**
 * What of a view kind changes how an event reads: only edges (a prop row then carries its
 * probabilities and edge). Delayed and live lines decide which events a view gets, not their JSON.
 */
export type Rendering = 'plain' | 'edges';

export function renderingOf(kind: ViewKind): Rendering {
  return kind.edges ? 'edges' : 'plain';
}

/** A view kind of each rendering, to render an event as it reads there. */
export const RENDERING_KINDS: Record<Rendering, ViewKind & { key: string }> = {
  plain: viewKindOf(false, true, false),
  edges: viewKindOf(false, true, true),
};

/**
 * Frames of one change for one view, made once; by change object (gone with it), then
 * rendering or view key. `byGame` lists each game's events (under its id and aliases), so a
 * view following one game looks at that game's events only, not at every event of the change
 * once per view.
 */
type ChangeCache = {
  byRendering: Map<Rendering, (string | undefined)[]>;
  byView: Map<string, ViewFrames>;
  byGame?: Map<string, number[]>;
  edgeFacts?: (EdgeFacts | undefined)[];
};

function eventsByGame(change: BoardChange): Map<string, number[]> {
  const byGame = new Map<string, number[]>();
  change.events.forEach((event, i) => {
    for (const id of [event.game.id, ...event.game.aliases]) {
      let list = byGame.get(id);
      if (!list) {
        list = [];
        byGame.set(id, list);
      }
      if (list.at(-1) !== i) list.push(i);
    }
  });
  return byGame;
}

const NO_BYTES = Buffer.alloc(0);

/** A change's events rendered elsewhere (the ingest worker: stream/rendered.ts), by event index. */
export interface RenderedEvents {
  plain: string[];
  edges: string[];
  facts: (EdgeFacts | undefined)[];
}

type RemovedReason = (typeof STREAM_REMOVED_REASONS)[number];

export function removedJson(game: Pick<BoardGame, 'id' | 'sport'>, prop: FilteredProp, reason: RemovedReason): string {
  return JSON.stringify({
    type: 'prop.removed',
    eventId: game.id,
    sport: game.sport,
    player: prop.player,
    stat: prop.stat,
    reason,
  });
}

export class StreamEncoder {
  private readonly changes = new WeakMap<BoardChange, ChangeCache>();
  /** Snapshot frames by board (gone with it), then reset flag and view key. */
  private readonly snapshots = new WeakMap<Board, Map<string, Buffer>>();

  constructor(private readonly views: ViewRegistry) {}

  /**
   * Takes a change's events as rendered elsewhere, so this encoder never renders them: the
   * stream then sends the bytes the renderer also logged. Before any other use of the change.
   */
  seed(change: BoardChange, rendered: RenderedEvents): void {
    this.changes.set(change, {
      byRendering: new Map<Rendering, (string | undefined)[]>([
        ['plain', rendered.plain],
        ['edges', rendered.edges],
      ]),
      byView: new Map(),
      edgeFacts: rendered.facts,
    });
  }

  /** The frames of a change the view shows, after skipping its first `skip` events (a resume mid-change). */
  changeBytes(change: BoardChange, view: StreamView, skip = 0): Buffer {
    const frames = this.viewFrames(change, view);
    if (skip === 0) return frames.bytes;
    const at = frames.events.findIndex((k) => k > skip);
    return at === -1 ? NO_BYTES : frames.bytes.subarray(frames.offsets[at] as number);
  }

  private cacheOf(change: BoardChange): ChangeCache {
    let cache = this.changes.get(change);
    if (!cache) {
      cache = { byRendering: new Map(), byView: new Map() };
      this.changes.set(change, cache);
    }
    return cache;
  }

  private viewFrames(change: BoardChange, view: StreamView): ViewFrames {
    const cache = this.cacheOf(change);
    const known = cache.byView.get(view.key);
    if (known) return known;
    const frames: ViewFrames = { bytes: NO_BYTES, events: [], offsets: [] };
    let candidates: readonly number[] | undefined;
    if (view.eventId !== null) {
      cache.byGame ??= eventsByGame(change);
      candidates = cache.byGame.get(view.eventId) ?? [];
    }
    const count = candidates?.length ?? change.events.length;
    let text = '';
    let offset = 0;
    for (let c = 0; c < count; c++) {
      const i = candidates ? (candidates[c] as number) : c;
      const event = change.events[i] as ChangeEvent;
      if (!eventMatches(view, event)) continue;
      const told = this.minEdgeJson(change, view, i);
      if (told === null) continue;
      const json = told ?? this.eventJson(change, view.kind, i);
      const framed = frame(json, `${change.version}.${i + 1}`);
      frames.events.push(i + 1);
      frames.offsets.push(offset);
      offset += Buffer.byteLength(framed);
      text += framed;
    }
    frames.bytes = Buffer.from(text);
    cache.byView.set(view.key, frames);
    return frames;
  }

  /** How a minEdge view tells the change's event `i`: undefined as the tier's view does, null not at all, else this JSON. */
  private minEdgeJson(change: BoardChange, view: StreamView, i: number): string | null | undefined {
    const event = change.events[i] as ChangeEvent;
    if (view.minEdge === null || event.kind === 'game') return undefined;
    const verdict = minEdgeVerdict(view, event.kind, this.edgeFacts(change, i) as EdgeFacts);
    if (verdict === 'as-is') return undefined;
    return verdict === 'nothing' ? null : removedJson(event.game, event.prop, 'below_min_edge');
  }

  /** The edge facts of the change's prop event `i` (undefined for a game event), judged once. */
  edgeFacts(change: BoardChange, i: number): EdgeFacts | undefined {
    const event = change.events[i] as ChangeEvent;
    if (event.kind === 'game') return undefined;
    const cache = this.cacheOf(change);
    cache.edgeFacts ??= new Array(change.events.length);
    let facts = cache.edgeFacts[i];
    if (facts === undefined) {
      // Edges read the same in every view kind that has them.
      const { game } = event;
      const now = event.kind === 'prop' ? this.edgeOf(change.board, game, event.prop) : undefined;
      const prop = event.kind === 'prop' ? event.previous : event.prop;
      const gameBefore = change.previous.gameById.get(game.id);
      const before =
        prop !== undefined && gameBefore?.id === game.id
          ? { game: gameBefore, prop, edge: this.edgeOf(change.previous, gameBefore, prop) }
          : undefined;
      facts = { now, before };
      cache.edgeFacts[i] = facts;
    }
    return facts;
  }

  private edgeOf(board: Board, game: BoardGame, prop: BoardProp): number | undefined {
    return this.views.viewsOf(board, RENDERING_KINDS.edges).edge(game, prop)?.edge;
  }

  /** The JSON of the change's event `i` (0-based) as views of this kind read it; made once per rendering. */
  eventJson(change: BoardChange, kind: ViewKind, i: number): string {
    const rendering = renderingOf(kind);
    const cache = this.cacheOf(change);
    let jsons = cache.byRendering.get(rendering);
    if (!jsons) {
      jsons = new Array(change.events.length);
      cache.byRendering.set(rendering, jsons);
    }
    let json = jsons[i];
    if (json === undefined) {
      json = this.renderEvent(change.board, kind, change.events[i] as ChangeEvent);
      jsons[i] = json;
    }
    return json;
  }

  private renderEvent(board: Board, kind: ViewKind, event: ChangeEvent): string {
    if (event.kind === 'game') return `{"type":"game","game":${JSON.stringify(gameOf(event.game))}}`;
    if (event.kind === 'prop.removed') return removedJson(event.game, event.prop, 'pulled');
    const row = this.views.viewsOf(board, kind).scanRow(event.game, event.prop);
    return `{"type":"prop","row":${JSON.stringify(row)},"previous":${previousOf(event.previous)}}`;
  }

  /**
   * The snapshot frame of `board` for the view: its games and every prop it shows; made once
   * per board and view (every stream of a view opening on the same board gets the same bytes).
   */
  snapshotBytes(board: Board, view: StreamView, reset: boolean): Buffer {
    let byView = this.snapshots.get(board);
    if (!byView) {
      byView = new Map();
      this.snapshots.set(board, byView);
    }
    const key = `${reset}|${view.key}`;
    let bytes = byView.get(key);
    if (!bytes) {
      bytes = this.makeSnapshot(board, view, reset);
      byView.set(key, bytes);
    }
    return bytes;
  }

  private makeSnapshot(board: Board, view: StreamView, reset: boolean): Buffer {
    const views = this.views.viewsOf(board, view.kind);
    const games: string[] = [];
    const rows: string[] = [];
    for (const game of board.games) {
      if (!gameMatches(view, game)) continue;
      games.push(JSON.stringify(gameOf(game)));
      for (const prop of game.props)
        if (propMatches(view, game, prop) && meetsMinEdge(view, views.edge(game, prop)?.edge))
          rows.push(JSON.stringify(views.scanRow(game, prop)));
    }
    const fetchedAt = board.fetchedAt > 0 ? JSON.stringify(new Date(board.fetchedAt).toISOString()) : 'null';
    const json = `{"type":"snapshot","reset":${reset},"boardVersion":${board.version},"fetchedAt":${fetchedAt},"delayed":${view.kind.delayed},"games":[${games.join(',')}],"rows":[${rows.join(',')}]}`;
    return Buffer.from(frame(json, String(board.version)));
  }
}
