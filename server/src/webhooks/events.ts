/**
 * The webhook events of one board change, as the stream computes it (views/boardChanges.ts):
 * a prop whose line or odds moved past an endpoint's thresholds (`prop.line_moved`), a prop
 * whose edge crossed an endpoint's minEdge (`prop.edge`, judged as the stream's minEdge views
 * judge it, on the same cached edge facts), and games that went live or final. Each event's
 * body is made once per rendering and reused for every endpoint it goes to; its id is derived
 * from the change (board version and event number), so every replica and every retry of the
 * production gives the same message the same `webhook-id`. The work is done in slices, with
 * a turn of the event loop between, so a 500-prop change to 1,000 endpoints never holds the loop.
 */
import { createHash } from 'node:crypto';
import type { Edge, EntryType, WebhookDeliveredType } from '@propsfeed/contract';
import type { BoardGame, BoardProp } from '../board/types';
import type { PropOdds } from '../odds';
import type { StreamEncoder } from '../stream/encode';
import { RENDERING_KINDS } from '../stream/encode';
import type { ViewRegistry } from '../views';
import type { BoardChange, ChangeEvent } from '../views/boardChanges';
import { gameOf } from '../views/encode';
import { type Audience, followsGame, movedFor, seesProp } from './audience';
import type { EventRecord } from './store';

/** A message id (`webhook-id`) derived from what the message is: the same on every replica and retry. */
export function messageId(...parts: (string | number)[]): string {
  return `msg_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24)}`;
}

export interface ProduceContext {
  encoder: StreamEncoder;
  views: ViewRegistry;
  odds?: PropOdds | undefined;
}

/** One event for one audience. */
export interface Addressed {
  audience: Audience;
  event: EventRecord;
}

/** Audiences × events checked between turns of the event loop. */
const SLICE = 20_000;

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function envelope(type: WebhookDeliveredType, atMs: number, data: string): string {
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(new Date(atMs).toISOString())},"data":${data}}`;
}

function quoteOf(p: Pick<BoardProp, 'line' | 'overOdds' | 'underOdds'>) {
  const q: { line: number; overOdds?: number; underOdds?: number } = { line: p.line };
  if (p.overOdds !== undefined) q.overOdds = p.overOdds;
  if (p.underOdds !== undefined) q.underOdds = p.underOdds;
  return q;
}

/** `prop.line_moved` of the change's event `i` as views of this kind render its row. */
export function lineMovedEvent(
  change: BoardChange,
  i: number,
  game: BoardGame,
  prop: BoardProp,
  previous: BoardProp,
  ctx: ProduceContext,
  view: Audience['view'],
): EventRecord {
  const row = ctx.views.viewsOf(change.board, view).scanRow(game, prop);
  const data = JSON.stringify({
    row,
    previous: quoteOf(previous),
    previousBooks: previous.books.map((b) => ({ source: b.source, ...quoteOf(b) })),
    lineChange: Math.round((prop.line - previous.line) * 1000) / 1000,
  });
  const id = messageId('prop.line_moved', change.version, i + 1, view.key);
  return { id, type: 'prop.line_moved', body: envelope('prop.line_moved', change.board.fetchedAt, data), createdAt: 0 };
}

/** A prop's edge now and before the change, against `entry` (else each book's cheapest, as rows show it). */
interface EdgePair {
  now: Edge | undefined;
  before: number | undefined;
}

function edgePair(
  change: BoardChange,
  i: number,
  event: ChangeEvent & { kind: 'prop' },
  ctx: ProduceContext,
  entry: EntryType | undefined,
): EdgePair {
  if (!entry || !ctx.odds) {
    const facts = ctx.encoder.edgeFacts(change, i);
    const row = ctx.views.viewsOf(change.board, RENDERING_KINDS.edges).edge(event.game, event.prop);
    return { now: row, before: facts?.before?.edge };
  }
  const { odds } = ctx;
  const edgeAt = (game: BoardGame, prop: BoardProp, atMs: number) => {
    const probabilities = odds.probabilities(game, prop, atMs);
    return probabilities && odds.edge(probabilities, atMs, entry);
  };
  const gameBefore = change.previous.gameById.get(event.game.id);
  const before =
    event.previous && gameBefore?.id === event.game.id
      ? edgeAt(gameBefore, event.previous, change.previous.fetchedAt)?.edge
      : undefined;
  return { now: edgeAt(event.game, event.prop, change.board.fetchedAt), before };
}

/** `prop.edge`: the edge crossed `minEdge`, upwards (`above`) or down (`below`). */
export function edgeEvent(
  change: BoardChange,
  i: number,
  event: ChangeEvent & { kind: 'prop' },
  pair: EdgePair,
  minEdge: number,
  entryId: string | null,
  direction: 'above' | 'below',
  ctx: ProduceContext,
): EventRecord {
  const row = ctx.views.viewsOf(change.board, RENDERING_KINDS.edges).scanRow(event.game, event.prop);
  const data = JSON.stringify({ row, edge: pair.now ?? null, previousEdge: pair.before ?? null, minEdge, direction });
  const id = messageId('prop.edge', change.version, i + 1, entryId ?? '*', minEdge, direction);
  return { id, type: 'prop.edge', body: envelope('prop.edge', change.board.fetchedAt, data), createdAt: 0 };
}

/** `game.started` or `game.final` of a game whose state moved on this change. */
export function gameEvent(
  change: BoardChange,
  i: number,
  game: BoardGame,
  type: 'game.started' | 'game.final',
): EventRecord {
  const data = JSON.stringify({ game: gameOf(game) });
  const id = messageId(type, change.version, i + 1);
  return { id, type, body: envelope(type, change.board.fetchedAt, data), createdAt: 0 };
}

/**
 * The game event a state change makes: pre → live starts it, anything → final ends it. The
 * game before is found by any of its ids: when the book that posted it first stops posting
 * (as PrizePicks does at the final), the merged game goes on under the other book's id.
 */
function gameTransition(change: BoardChange, game: BoardGame): 'game.started' | 'game.final' | undefined {
  const { gameById } = change.previous;
  let before = gameById.get(game.id);
  for (const alias of game.aliases) before ??= gameById.get(alias);
  if (!before || before.state === game.state) return undefined;
  if (game.state === 'final') return 'game.final';
  if (game.state === 'live' && before.state === 'pre') return 'game.started';
  return undefined;
}

function crossing(pair: EdgePair, minEdge: number): 'above' | 'below' | undefined {
  const now = pair.now?.edge;
  const isAbove = now !== undefined && now >= minEdge;
  const wasAbove = pair.before !== undefined && pair.before >= minEdge;
  if (isAbove && !wasAbove) return 'above';
  if (wasAbove && !isAbove) return 'below';
  return undefined;
}

export interface ChangeProduction {
  addressed: Addressed[];
  /** Games that went final on this change (each once), for settlement. */
  finals: BoardGame[];
}

/**
 * Every event of the change for every audience that receives it. `entryOf` gives an
 * endpoint's entry type in force on the change's day (undefined: none named, or none in force).
 */
export async function produceChange(
  change: BoardChange,
  audiences: readonly Audience[],
  ctx: ProduceContext,
  entryOf: (audience: Audience, atMs: number) => EntryType | undefined,
): Promise<ChangeProduction> {
  const addressed: Addressed[] = [];
  const finals: BoardGame[] = [];
  const made = new Map<string, EventRecord>();
  const once = (key: string, make: () => EventRecord): EventRecord => {
    let event = made.get(key);
    if (!event) {
      event = make();
      made.set(key, event);
    }
    return event;
  };
  let work = 0;
  for (let i = 0; i < change.events.length; i++) {
    const event = change.events[i] as ChangeEvent;
    if (event.kind === 'game') {
      const type = gameTransition(change, event.game);
      if (type === 'game.final') finals.push(event.game);
      if (type) {
        for (const audience of audiences) {
          if (!audience.events.has(type) || !followsGame(audience, event.game)) continue;
          addressed.push({ audience, event: once(`${type}|${i}`, () => gameEvent(change, i, event.game, type)) });
        }
      }
    } else if (event.kind === 'prop') {
      const pairs = new Map<string, EdgePair>();
      for (const audience of audiences) {
        if (!seesProp(audience, event.game, event.prop)) continue;
        const { previous } = event;
        if (previous && audience.events.has('prop.line_moved') && movedFor(audience, event.prop, previous)) {
          const key = `moved|${i}|${audience.view.key}`;
          addressed.push({
            audience,
            event: once(key, () => lineMovedEvent(change, i, event.game, event.prop, previous, ctx, audience.view)),
          });
        }
        const { minEdge } = audience.endpoint;
        if (minEdge !== null && audience.events.has('prop.edge') && audience.view.edges) {
          const entry = entryOf(audience, change.board.fetchedAt);
          const entryKey = entry?.id ?? '*';
          let pair = pairs.get(entryKey);
          if (!pair) {
            pair = edgePair(change, i, event, ctx, entry);
            pairs.set(entryKey, pair);
          }
          const direction = crossing(pair, minEdge);
          if (direction) {
            const edges = pair;
            addressed.push({
              audience,
              event: once(`edge|${i}|${entryKey}|${minEdge}|${direction}`, () =>
                edgeEvent(change, i, event, edges, minEdge, entry?.id ?? null, direction, ctx),
              ),
            });
          }
        }
      }
    }
    work += audiences.length;
    if (work >= SLICE) {
      work = 0;
      await yieldTurn();
    }
  }
  return { addressed, finals };
}
