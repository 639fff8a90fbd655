/**
 * GET /props/movement: the board's biggest line movers. Current lines come from the caller's
 * board; opening lines from line history, kept in memory (`OpeningLines`) so that an answer
 * is computed once per board version and then served as prepared bytes.
 */
import {
  DEFAULT_MOVERS_LIMIT,
  type MovementParams,
  type MovementResponse,
  type Mover,
  type SportId,
} from '@propsfeed/contract';
import { assertSport, assertStateAllowed } from '../auth/access';
import type { Caller } from '../auth/caller';
import type { Board, BoardGame } from '../board/types';
import { consensusLine } from '../feed/merge';
import type { LineHistoryReader } from '../history/types';
import { AnswersPer } from '../views/answers';
import { type OpeningLines, propKey, type Quote, quote } from '../views/openingLines';
import { Prepared } from '../views/prepared';
import type { QueryDeps } from './deps';
import { assertStatsOfSport } from './statOfSport';

export interface MoversDeps {
  openings: OpeningLines;
  history: LineHistoryReader;
}

/** Answers per board, by view, sport, stat, since and limit: each is computed once per board. */
const answers = new AnswersPer<Board, Prepared<MovementResponse>>(256);

export async function movementQuery(
  deps: QueryDeps,
  caller: Caller,
  params: MovementParams & { sport: SportId },
  movers: MoversDeps,
): Promise<Prepared<MovementResponse>> {
  const { sport } = params;
  assertSport(caller, sport);
  assertStateAllowed(caller, params.state);
  if (params.stat !== undefined) assertStatsOfSport(sport, [params.stat]);
  // Limit and since were checked by the contract's MovementQuerySchema at every entry point.
  const limit = params.limit ?? DEFAULT_MOVERS_LIMIT;
  const sinceMs = params.since === undefined ? undefined : new Date(params.since).getTime();

  const nowMs = deps.now();
  const views = deps.views.views(caller.view, caller.policy.delayMs, nowMs);
  const { board } = views;
  const cache = answers.of(board);
  const key = `${caller.view.delayed}|${caller.view.liveLines}|${sport}|${params.stat ?? ''}|${sinceMs ?? ''}|${limit}|${params.state ?? ''}`;
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
  const all = boardMovers(board, sport, params.stat ?? null, (g) => views.showsProps(g, params.state), openOf);
  const response: MovementResponse = {
    sport,
    stat: params.stat ?? null,
    since: sinceMs === undefined ? null : new Date(sinceMs).toISOString(),
    count: Math.min(limit, all.length),
    total: all.length,
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
        // The merged opening line: the merge's consensus rule applied to the books' openings.
        ...move(consensusLine(opens), prop.line),
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
