/**
 * A change's events as rendered once, in the form the stored log keeps (log.ts) and the ingest
 * worker sends the API thread beside each board (cluster/ingestWorker.ts): each event's JSON in
 * both renderings and the facts the stream's filters read. The API thread's encoder takes
 * these instead of rendering, so a live stream sends the very bytes the log keeps for a resume.
 */
import type { SportId } from '@propsfeed/contract';
import { normalizeName } from '../books/names';
import type { BoardChange, ChangeEvent } from '../views/boardChanges';
import { type EdgeFacts, RENDERING_KINDS, type RenderedEvents, removedJson, type StreamEncoder } from './encode';

/**
 * One event as the log keeps it, inside a record: [idx (1-based, the k of the id `N.k`), kind,
 * game ids (`|id|alias|`), live (0 or 1), stat, player (normalizeName), JSON, JSON with edges
 * (when it differs), the new row's edge, the prop before the change (LoggedBefore, when its
 * row had an edge), the prop.removed JSON a minEdge view sends when the edge fell below its
 * floor (where that can happen)].
 */
export type LoggedRow = [
  idx: number,
  kind: string,
  gameIds: string,
  live: 0 | 1,
  stat: string | null,
  player: string | null,
  json: string,
  jsonEdges: string | null,
  edge: number | null,
  before: LoggedBefore | null,
  jsonBelow: string | null,
];

/** The prop before a change as the log keeps it: what minEdgeVerdict reads. */
interface LoggedBefore {
  ids: string[];
  sport: SportId;
  live: boolean;
  player: string;
  stat: string;
  edge: number | null;
}

/** A change's rows, with the versions they were rendered between (the receiver checks it diffed the same boards). */
export interface RenderedChange {
  version: number;
  previousVersion: number;
  rows: LoggedRow[];
}

export const gameIdsOf = (ids: readonly string[]) => `|${ids.join('|')}|`;

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
export function factsOf(row: LoggedRow): EdgeFacts {
  const before = row[9] ?? undefined;
  return {
    now: row[8] ?? undefined,
    before: before && {
      game: { id: before.ids[0] as string, aliases: before.ids.slice(1), sport: before.sport, live: before.live },
      prop: { player: before.player, stat: before.stat },
      edge: before.edge ?? undefined,
    },
  };
}

/** The rows of the change's events `from` up to `to` (0-based, `to` excluded), rendered by `encoder` (once each). */
export function loggedRows(change: BoardChange, encoder: StreamEncoder, from: number, to: number): LoggedRow[] {
  const rows: LoggedRow[] = [];
  for (let i = from; i < to; i++) {
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
    rows.push([
      i + 1,
      event.kind,
      gameIdsOf([event.game.id, ...event.game.aliases]),
      event.game.live ? 1 : 0,
      prop?.stat ?? null,
      prop ? normalizeName(prop.player) : null,
      json,
      edges === json ? null : edges,
      facts?.now ?? null,
      before ? loggedBefore(before) : null,
      canFall && prop ? removedJson(event.game, prop, 'below_min_edge') : null,
    ]);
  }
  return rows;
}

/**
 * What an encoder takes from rows rendered elsewhere: each event's JSON per rendering and its
 * edge facts (a prop without an edge before keeps none: no minEdge view showed it).
 */
export function renderedEventsOf(change: BoardChange, rows: readonly LoggedRow[]): RenderedEvents {
  const plain: string[] = [];
  const edges: string[] = [];
  const facts: (EdgeFacts | undefined)[] = [];
  for (const row of rows) {
    plain.push(row[6]);
    edges.push(row[7] ?? row[6]);
    const event = change.events[row[0] - 1] as ChangeEvent;
    facts.push(event.kind === 'game' ? undefined : factsOf(row));
  }
  return { plain, edges, facts };
}
