/**
 * GET /props/history: every change of one prop's line and prices since it opened, per book,
 * oldest first, with the opening and current line; de-duplicated and bounded per answer.
 */
import type { LinePoint, PropHistoryParams, PropHistoryResponse, SportId } from '@propsfeed/contract';
import { assertLiveAllowed, assertSport } from '../auth/access';
import type { Caller } from '../auth/caller';
import type { Board } from '../board/types';
import { ApiError } from '../errors/apiError';
import type { LineHistoryReader, LinePointRecord } from '../history/types';
import { AnswersPer } from '../views/answers';
import { Prepared } from '../views/prepared';
import type { QueryDeps } from './deps';
import { findPlayer, playersOnBoard } from './players';
import { assertStatsOfSport } from './statOfSport';

/** Most changes one book's history carries in an answer; the newest are kept. */
export const MAX_HISTORY_POINTS = 500;
/**
 * How long an answer is reused for the same board. History only grows with a new board, but
 * it is written just after the board is made: a short expiry covers that moment.
 */
export const HISTORY_REUSE_MS = 1_000;

const answers = new AnswersPer<Board, { builtAt: number; prepared: Prepared<PropHistoryResponse> }>(1024);

export async function propHistoryQuery(
  deps: QueryDeps,
  caller: Caller,
  params: PropHistoryParams,
  history: LineHistoryReader,
): Promise<Prepared<PropHistoryResponse>> {
  const nowMs = deps.now();
  const views = deps.views.views(caller.view, caller.policy.delayMs, nowMs);
  const onBoard = views.game(params.eventId);
  let sport: SportId;
  if (onBoard) {
    sport = onBoard.sport;
  } else {
    // A game that has left the board still has its history.
    const known = await history.resolveGame(params.eventId);
    if (!known) throw new ApiError('event_not_found', `no game has the id ${params.eventId}`);
    sport = known.sport;
  }
  assertSport(caller, sport);
  if (onBoard) assertLiveAllowed(caller, onBoard);
  assertStatsOfSport(sport, [params.stat]);

  const cache = answers.of(views.board);
  const key = `${caller.policy.delayMs}|${params.eventId}|${params.stat}|${params.source ?? ''}|${params.player}`;
  const cached = cache.get(key);
  if (cached && nowMs - cached.builtAt < HISTORY_REUSE_MS && nowMs >= cached.builtAt) return cached.prepared;

  // On the board the name is matched forgivingly among the game's players; otherwise as normalized.
  let player = params.player;
  if (onBoard) {
    const inGame = [...playersOnBoard(views).values()].filter((p) => p.props.some(({ game }) => game === onBoard));
    const found = findPlayer(params.player, inGame);
    if (found) player = found.playerKey;
  }
  const found = await history.propHistory({
    gameId: params.eventId,
    player,
    stat: params.stat,
    ...(params.source ? { source: params.source } : {}),
    ...(caller.policy.delayMs > 0 ? { untilMs: nowMs - caller.policy.delayMs } : {}),
  });
  if (!found || found.books.length === 0) {
    throw new ApiError(
      'not_found',
      `no ${params.stat} line history for '${params.player}' in ${params.eventId}${params.source ? ` at ${params.source}` : ''}`,
    );
  }

  const response: PropHistoryResponse = {
    eventId: found.gameId,
    sport: found.sport,
    player: found.player,
    stat: found.stat,
    books: found.books.map((book) => {
      const changes = withoutRepeats(book.changes);
      const kept = changes.slice(-MAX_HISTORY_POINTS);
      return {
        source: book.source,
        opening: linePoint(book.opening),
        current: linePoint(book.current),
        changes: kept.map(linePoint),
        ...(kept.length < changes.length ? { truncated: true } : {}),
      };
    }),
  };
  if (caller.view.delayed) response.delayed = true;
  const prepared = Prepared.of(response);
  cache.set(key, { builtAt: nowMs, prepared });
  return prepared;
}

/** Drops a point equal to the one before it (a line pulled and posted again unchanged). */
export function withoutRepeats(points: readonly LinePointRecord[]): LinePointRecord[] {
  const kept: LinePointRecord[] = [];
  for (const p of points) {
    const last = kept[kept.length - 1];
    if (last && last.line === p.line && last.overOdds === p.overOdds && last.underOdds === p.underOdds) continue;
    kept.push(p);
  }
  return kept;
}

function linePoint(p: LinePointRecord): LinePoint {
  const point: LinePoint = { at: new Date(p.at).toISOString(), line: p.line };
  if (p.overOdds !== undefined) point.overOdds = p.overOdds;
  if (p.underOdds !== undefined) point.underOdds = p.underOdds;
  return point;
}
