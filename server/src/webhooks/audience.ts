/**
 * An endpoint as event production reads it: its key's tier view (sports, live lines, delay,
 * edges: the caller's, as REST serves it), its events and its filters, compiled once per
 * endpoint change into sets. An endpoint whose key is revoked has no audience.
 */
import type { SportId, WebhookEventType } from '@propsfeed/contract';
import type { Caller } from '../auth/caller';
import type { BoardGame, BoardProp, BookQuote } from '../board/types';
import { normalizeName } from '../books/names';
import { ALL_SPORTS, allowsSport } from '../limits/policy';
import type { ViewKind } from '../views';
import type { EndpointRecord } from './store';

export interface Audience {
  endpoint: EndpointRecord;
  events: ReadonlySet<WebhookEventType>;
  /** The sports it sees: its filter's, within its tier's. */
  sports: ReadonlySet<SportId>;
  liveLines: boolean;
  delayMs: number;
  view: ViewKind & { key: string };
  perMinute: number;
  stats: ReadonlySet<string> | null;
  /** normalizeName of each player. */
  players: ReadonlySet<string> | null;
  books: ReadonlySet<string> | null;
  games: ReadonlySet<string> | null;
}

export function audienceOf(endpoint: EndpointRecord, caller: Caller): Audience {
  const { filters } = endpoint;
  const tierSports = ALL_SPORTS.filter((s) => allowsSport(caller.policy, s));
  const sports = filters.sports ? tierSports.filter((s) => filters.sports?.includes(s)) : tierSports;
  return {
    endpoint,
    events: new Set(endpoint.events),
    sports: new Set(sports),
    liveLines: caller.policy.liveLines,
    delayMs: caller.policy.delayMs,
    view: caller.view as ViewKind & { key: string },
    perMinute: caller.policy.webhookEventsPerMinute,
    stats: filters.stats ? new Set(filters.stats) : null,
    players: filters.players ? new Set(filters.players.map(normalizeName)) : null,
    books: filters.books ? new Set(filters.books) : null,
    games: filters.games ? new Set(filters.games) : null,
  };
}

/** The game is one the audience follows: its sport, and its game filter (by id or alias). */
export function followsGame(a: Audience, game: Pick<BoardGame, 'id' | 'aliases' | 'sport' | 'sources'>): boolean {
  if (!a.sports.has(game.sport)) return false;
  if (a.books && !game.sources.some((s) => a.books?.has(s))) return false;
  return a.games === null || a.games.has(game.id) || game.aliases.some((id) => a.games?.has(id));
}

/** The prop is one the audience sees: its game followed, not live below a live tier, and the filters hold. */
export function seesProp(
  a: Audience,
  game: Pick<BoardGame, 'id' | 'aliases' | 'sport' | 'sources' | 'live'>,
  prop: { player: string; stat: string; books: readonly { source: string }[] },
): boolean {
  if (!followsGame(a, game) || (game.live && !a.liveLines)) return false;
  if (a.stats && !a.stats.has(prop.stat)) return false;
  if (a.books && !prop.books.some((b) => a.books?.has(b.source))) return false;
  return a.players === null || a.players.has(normalizeName(prop.player));
}

/** American odds as cents from even: −105 → −5, +105 → +5, so −105 to +105 is a 10-cent move. */
function cents(odds: number): number {
  return odds > 0 ? odds - 100 : odds + 100;
}

type Quote = Pick<BookQuote, 'line' | 'overOdds' | 'underOdds'>;

function oddsMoved(a: number | undefined, b: number | undefined, threshold: number): boolean {
  return a !== undefined && b !== undefined && Math.abs(cents(a) - cents(b)) >= threshold;
}

function quoteMoved(now: Quote, before: Quote, au: Audience): boolean {
  const { lineThreshold, oddsThreshold } = au.endpoint;
  return (
    Math.abs(now.line - before.line) >= lineThreshold - 1e-9 ||
    oddsMoved(now.overOdds, before.overOdds, oddsThreshold) ||
    oddsMoved(now.underOdds, before.underOdds, oddsThreshold)
  );
}

/**
 * Whether the prop moved past the audience's thresholds from the previous board: its merged
 * line and odds, or, with a books filter, one of those books' own.
 */
export function movedFor(a: Audience, prop: BoardProp, previous: BoardProp): boolean {
  if (!a.books) return quoteMoved(prop, previous, a);
  for (const quote of prop.books) {
    if (!a.books.has(quote.source)) continue;
    const before = previous.books.find((b) => b.source === quote.source);
    if (before && quoteMoved(quote, before, a)) return true;
  }
  return false;
}
