/**
 * GET /props/movement: the board's biggest line movers. Current lines come from the caller's
 * board; opening lines from line history, kept in memory (`OpeningLines`) so that an answer
 * is computed once per board version and then served as prepared bytes.
 */
import {
  isStatKey,
  type MovementResponse,
  type Mover,
  type MoversParams,
  type SportId,
  STAT_KEYS,
} from '@propsfeed/contract';
import type { Board, BoardGame, BoardSource } from '../feed/types';
import type { LineHistoryReader } from '../history/types';
import { BoundedMap, Prepared } from '../views/prepared';
import { assertSport } from './access';
import type { Caller } from './caller';
import type { QueryDeps } from './deps';
import { ApiError } from './errors';
import { isActiveFor } from './player';

export const DEFAULT_MOVERS_LIMIT = 50;
export const MAX_MOVERS_LIMIT = 500;

/** A line with its prices, as it opened (or stood at `since`). */
export interface Quote {
  line: number;
  overOdds?: number;
  underOdds?: number;
}

/** Opening quotes of one game's props, by `book|playerKey|stat`. */
type GameOpens = Map<string, Quote>;

const propKey = (book: string, playerKey: string, stat: string) => `${book}|${playerKey}|${stat}`;

/**
 * Each book's opening quote of every prop on the board. Loaded from line history per sport,
 * then kept current by watching boards: the first board a quote appears on carries its
 * opening. History is read again only when a board holds a quote with no known opening.
 */
export class OpeningLines {
  private readonly bySport = new Map<
    SportId,
    { games: Map<string, GameOpens>; checked?: Board; loading?: Promise<void> }
  >();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly feed: BoardSource,
    private readonly history: LineHistoryReader,
  ) {}

  start(): void {
    this.unsubscribe ??= this.feed.subscribe((board) => this.sight(board));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** The opening quote of a book's prop; undefined only before `ensure` for its sport. */
  opening(sport: SportId, gameId: string, book: string, playerKey: string, stat: string): Quote | undefined {
    return this.bySport
      .get(sport)
      ?.games.get(gameId)
      ?.get(propKey(book, playerKey, stat));
  }

  /** Makes every quote of the sport on `board` have an opening, reading history when one lacks it. */
  async ensure(board: Board, sport: SportId): Promise<void> {
    const state = this.state(sport);
    if (state.checked === board) return;
    if (this.missing(board, sport)) {
      state.loading ??= this.load(sport).finally(() => {
        state.loading = undefined;
      });
      await state.loading;
      // What history does not know opened on a board we did not see: its first sight is its opening.
      this.sight(board, sport);
    }
    state.checked = board;
  }

  private state(sport: SportId) {
    let state = this.bySport.get(sport);
    if (!state) {
      state = { games: new Map() };
      this.bySport.set(sport, state);
    }
    return state;
  }

  private missing(board: Board, sport: SportId): boolean {
    for (const game of board.games) {
      if (game.sport !== sport) continue;
      for (const prop of game.props) {
        for (const q of prop.books) if (!this.opening(sport, game.id, q.source, prop.playerKey, prop.stat)) return true;
      }
    }
    return false;
  }

  private async load(sport: SportId): Promise<void> {
    const records = await this.history.movers({ sport });
    const games = this.state(sport).games;
    for (const rec of records) {
      let opens = games.get(rec.gameId);
      if (!opens) {
        opens = new Map();
        games.set(rec.gameId, opens);
      }
      for (const b of rec.books) {
        // History's opening is the truth; it replaces a sighting made while it loaded.
        opens.set(propKey(b.source, rec.playerKey, rec.stat), quote(b.openLine, b.openOverOdds, b.openUnderOdds));
      }
    }
  }

  /**
   * Records the opening of every quote not seen before, of one sport or (for each new current
   * board) of all, then forgets games gone from the board.
   */
  private sight(board: Board, only?: SportId): void {
    for (const game of board.games) {
      if (only !== undefined && game.sport !== only) continue;
      const games = this.state(game.sport).games;
      let opens = games.get(game.id);
      if (!opens) {
        opens = new Map();
        games.set(game.id, opens);
      }
      for (const prop of game.props) {
        for (const q of prop.books) {
          const key = propKey(q.source, prop.playerKey, prop.stat);
          if (!opens.has(key)) opens.set(key, quote(q.line, q.overOdds, q.underOdds));
        }
      }
    }
    if (only !== undefined) return;
    // Games gone from the board are forgotten; history still has them if one comes back.
    for (const state of this.bySport.values()) {
      for (const id of state.games.keys()) if (!board.gameById.has(id)) state.games.delete(id);
    }
  }
}

function quote(line: number, overOdds?: number, underOdds?: number): Quote {
  const q: Quote = { line };
  if (overOdds !== undefined) q.overOdds = overOdds;
  if (underOdds !== undefined) q.underOdds = underOdds;
  return q;
}

export interface MoversDeps {
  openings: OpeningLines;
  history: LineHistoryReader;
}

/** Answers per board, by view, sport, stat, since and limit: each is computed once per board. */
const answers = new WeakMap<Board, BoundedMap<string, Prepared<MovementResponse>>>();

export async function moversQuery(
  deps: QueryDeps,
  caller: Caller,
  params: MoversParams & { sport: SportId },
  movers: MoversDeps,
): Promise<Prepared<MovementResponse>> {
  const { sport } = params;
  assertSport(caller, sport);
  if (params.stat !== undefined && !isStatKey(sport, params.stat)) {
    throw new ApiError(
      'invalid_request',
      `unknown stat '${params.stat}' for ${sport} (known: ${STAT_KEYS[sport].join(', ')})`,
    );
  }
  const limit = params.limit ?? DEFAULT_MOVERS_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_MOVERS_LIMIT) {
    throw new ApiError('invalid_request', `limit is a whole number from 1 to ${MAX_MOVERS_LIMIT}`);
  }
  const sinceMs = params.since === undefined ? undefined : new Date(params.since).getTime();
  if (sinceMs !== undefined && Number.isNaN(sinceMs)) {
    throw new ApiError('invalid_request', 'since is an ISO 8601 time, e.g. 2026-11-22T18:00:00Z');
  }

  const nowMs = deps.now();
  const board = deps.views.views(caller.view, caller.policy.delayMs, nowMs).board;
  let cache = answers.get(board);
  if (!cache) {
    cache = new BoundedMap(256);
    answers.set(board, cache);
  }
  const key = `${caller.view.delayed}|${caller.view.liveLines}|${sport}|${params.stat ?? ''}|${sinceMs ?? ''}|${limit}`;
  const cached = cache.get(key);
  if (cached) return cached;

  const openOf = await openings(
    movers,
    board,
    sport,
    params.stat,
    sinceMs,
    caller.policy.delayMs > 0 ? nowMs - caller.policy.delayMs : undefined,
  );
  const all = boardMovers(board, sport, params.stat ?? null, (g) => isActiveFor(caller, g), openOf);
  const response: MovementResponse = {
    sport,
    stat: params.stat ?? null,
    since: sinceMs === undefined ? null : new Date(sinceMs).toISOString(),
    count: Math.min(limit, all.length),
    movers: all.slice(0, limit),
  };
  if (caller.view.delayed) response.delayed = true;
  const prepared = Prepared.of(response);
  cache.set(key, prepared);
  return prepared;
}

type OpenOf = (game: BoardGame, book: string, playerKey: string, stat: string) => Quote | undefined;

/** Since open: the in-memory openings. Since a time: history's lines as they stood then. */
async function openings(
  movers: MoversDeps,
  board: Board,
  sport: SportId,
  stat: string | undefined,
  sinceMs: number | undefined,
  untilMs: number | undefined,
): Promise<OpenOf> {
  if (sinceMs === undefined) {
    await movers.openings.ensure(board, sport);
    return (game, book, playerKey, s) => movers.openings.opening(sport, game.id, book, playerKey, s);
  }
  const records = await movers.history.movers({
    sport,
    sinceMs,
    ...(stat !== undefined ? { stat } : {}),
    ...(untilMs !== undefined ? { untilMs } : {}),
  });
  const byProp = new Map<string, Quote>();
  for (const rec of records) {
    for (const b of rec.books) {
      byProp.set(
        `${rec.gameId}|${propKey(b.source, rec.playerKey, rec.stat)}`,
        quote(b.openLine, b.openOverOdds, b.openUnderOdds),
      );
    }
  }
  return (game, book, playerKey, s) => byProp.get(`${game.id}|${propKey(book, playerKey, s)}`);
}

/**
 * Every prop of the sport that moved (line or price, at any book), biggest absolute change of
 * the merged line first, then biggest odds movement, then board order. A book quote with no
 * known opening counts as unmoved.
 */
export function boardMovers(
  board: Board,
  sport: SportId,
  stat: string | null,
  visible: (game: BoardGame) => boolean,
  openOf: OpenOf,
): Mover[] {
  const movers: { mover: Mover; order: number }[] = [];
  for (const game of board.games) {
    if (game.sport !== sport || !visible(game)) continue;
    for (const prop of game.props) {
      if (stat !== null && prop.stat !== stat) continue;
      let oddsChange: number | undefined;
      let moved = false;
      const opens: Quote[] = [];
      const books = prop.books.map((q) => {
        const open = openOf(game, q.source, prop.playerKey, prop.stat) ?? q;
        opens.push(open);
        for (const side of ['overOdds', 'underOdds'] as const) {
          const from = open[side];
          const to = q[side];
          if (from === undefined || to === undefined) continue;
          const cents = Math.abs(oddsCents(to) - oddsCents(from));
          oddsChange = Math.max(oddsChange ?? 0, cents);
        }
        if (open.line !== q.line) moved = true;
        return { source: q.source, ...move(open.line, q.line) };
      });
      if (!moved && !oddsChange) continue;
      const mover: Mover = {
        eventId: game.id,
        sport: game.sport,
        homeTeam: game.homeTeam,
        awayTeam: game.awayTeam,
        startTime: game.startTime,
        player: prop.player,
        stat: prop.stat,
        ...move(consensusOf(opens), prop.line),
        // In the schema's field order: odds movement, then the books.
        ...(oddsChange !== undefined ? { oddsChange } : {}),
        books,
      };
      movers.push({ mover, order: movers.length });
    }
  }
  movers.sort(
    (a, b) =>
      Math.abs(b.mover.change) - Math.abs(a.mover.change) ||
      (b.mover.oddsChange ?? 0) - (a.mover.oddsChange ?? 0) ||
      a.order - b.order,
  );
  return movers.map((m) => m.mover);
}

/**
 * The merged opening line: the merge's consensus rule (DESIGN.md, Merging) applied to the
 * books' openings: the line most books opened at; on a tie, that of a book with odds, else
 * the first book's.
 */
function consensusOf(opens: readonly Quote[]): number {
  const counts = new Map<number, number>();
  for (const q of opens) counts.set(q.line, (counts.get(q.line) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const tied = opens.filter((q) => counts.get(q.line) === top);
  return (tied.find((q) => q.overOdds !== undefined || q.underOdds !== undefined) ?? (tied[0] as Quote)).line;
}

function move(openLine: number, currentLine: number) {
  // Rounded so that 24.5 - 22.1 reads 2.4, not 2.3999999999999986.
  const change = Math.round((currentLine - openLine) * 1000) / 1000;
  return {
    openLine,
    currentLine,
    change,
    direction: change > 0 ? ('up' as const) : change < 0 ? ('down' as const) : ('flat' as const),
  };
}

/** American odds on one continuous scale (-110 → -10, +105 → +5), so a move across even money counts right. */
function oddsCents(odds: number): number {
  return odds >= 100 ? odds - 100 : odds + 100;
}
