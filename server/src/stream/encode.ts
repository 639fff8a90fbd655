/**
 * The stream's bytes. An event's JSON is made once per board change and view kind (tier),
 * and the SSE frames of one change for one view (kind × filter) once, as one buffer that
 * every connection of the view is written: never one JSON.stringify per client.
 */
import type { SportId, StreamGame } from '@propsfeed/contract';
import { normalizeName } from '../books/names';
import type { Board, BoardGame, BoardProp } from '../feed/types';
import type { ViewKind, ViewRegistry } from '../views';
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
}

export function streamViewOf(view: Omit<StreamView, 'key'>): StreamView {
  const key = [
    view.kind.key,
    view.delayMs,
    view.sports.join(','),
    view.stats?.join(',') ?? '*',
    view.eventId ?? '*',
    view.player ?? '*',
  ].join('|');
  return { ...view, key };
}

function gameMatches(view: StreamView, game: BoardGame): boolean {
  if (!view.sports.includes(game.sport)) return false;
  return view.eventId === null || game.id === view.eventId || game.aliases.includes(view.eventId);
}

/** A prop the view shows: its game matches, it is not live for tiers without live lines, and the filters hold. */
function propMatches(view: StreamView, game: BoardGame, prop: BoardProp): boolean {
  if (!gameMatches(view, game) || (game.live && !view.kind.liveLines)) return false;
  if (view.stats !== null && !view.stats.includes(prop.stat)) return false;
  return view.player === null || normalizeName(prop.player) === view.player;
}

function eventMatches(view: StreamView, event: ChangeEvent): boolean {
  return event.kind === 'game' ? gameMatches(view, event.game) : propMatches(view, event.game, event.prop);
}

export function streamGameOf(game: BoardGame): StreamGame {
  const out: StreamGame = { ...gameOf(game), state: game.state };
  if (game.clock !== undefined) out.clock = game.clock;
  return out;
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

/** Frames of one change for one view, made once; by change object (gone with it), then view key. */
type ChangeCache = { byKind: Map<string, (string | undefined)[]>; byView: Map<string, Buffer> };

export class StreamEncoder {
  private readonly changes = new WeakMap<BoardChange, ChangeCache>();

  constructor(private readonly views: ViewRegistry) {}

  /** The frames of a change the view shows, after skipping its first `skip` events (a resume mid-change). */
  changeBytes(change: BoardChange, view: StreamView, skip = 0): Buffer {
    let cache = this.changes.get(change);
    if (!cache) {
      cache = { byKind: new Map(), byView: new Map() };
      this.changes.set(change, cache);
    }
    if (skip === 0) {
      const known = cache.byView.get(view.key);
      if (known) return known;
    }
    let jsons = cache.byKind.get(view.kind.key);
    if (!jsons) {
      jsons = new Array(change.events.length);
      cache.byKind.set(view.kind.key, jsons);
    }
    let text = '';
    for (let i = skip; i < change.events.length; i++) {
      const event = change.events[i] as ChangeEvent;
      if (!eventMatches(view, event)) continue;
      let json = jsons[i];
      if (json === undefined) {
        json = this.eventJson(change.board, view.kind, event);
        jsons[i] = json;
      }
      text += frame(json, `${change.version}.${i + 1}`);
    }
    const bytes = Buffer.from(text);
    if (skip === 0) cache.byView.set(view.key, bytes);
    return bytes;
  }

  private eventJson(board: Board, kind: StreamView['kind'], event: ChangeEvent): string {
    if (event.kind === 'game') return `{"type":"game","game":${JSON.stringify(streamGameOf(event.game))}}`;
    if (event.kind === 'prop.removed') {
      const { game, prop } = event;
      return JSON.stringify({
        type: 'prop.removed',
        eventId: game.id,
        sport: game.sport,
        player: prop.player,
        stat: prop.stat,
      });
    }
    const row = this.views.viewsOf(board, kind).scanRow(event.game, event.prop);
    return `{"type":"prop","row":${JSON.stringify(row)},"previous":${previousOf(event.previous)}}`;
  }

  /** The snapshot frame of `board` for the view: its games and every prop it shows. */
  snapshotBytes(board: Board, view: StreamView, reset: boolean): Buffer {
    const views = this.views.viewsOf(board, view.kind);
    const games: string[] = [];
    const rows: string[] = [];
    for (const game of board.games) {
      if (!gameMatches(view, game)) continue;
      games.push(JSON.stringify(streamGameOf(game)));
      for (const prop of game.props)
        if (propMatches(view, game, prop)) rows.push(JSON.stringify(views.scanRow(game, prop)));
    }
    const fetchedAt = board.fetchedAt > 0 ? JSON.stringify(new Date(board.fetchedAt).toISOString()) : 'null';
    const json = `{"type":"snapshot","reset":${reset},"boardVersion":${board.version},"fetchedAt":${fetchedAt},"delayed":${view.kind.delayed},"games":[${games.join(',')}],"rows":[${rows.join(',')}]}`;
    return Buffer.from(frame(json, String(board.version)));
  }
}
