/**
 * A feed restarting on the real books picks up from line history, in one read of it:
 * - the delayed view (the free tier's): boards as the books stood every
 *   RESTORE_STEP_MS over the last RESTORE_WINDOW_MS, up to the newest stored point, go into
 *   the feed's timeline; without them it would stay empty until the feed had run for the
 *   whole delay;
 * - line tracking: the latest point of each line seeds the core (FeedCore.resumeFrom), so the
 *   first poll records only what moved, not every line again.
 */
import type { Book } from '@propsfeed/contract';
import type { SlateGame } from '../books/types';
import type { HistoryGame, LineChange, LineHistoryStore } from '../history/lineHistory';
import type { FeedCore } from './core';
import { quoteOfPoint } from './intern';
import type { BookView, QuotedLine } from './merge';

const MIN = 60_000;
/** Longer than any delayed view (free: 10 minutes), with room for a slow restart. */
export const RESTORE_WINDOW_MS = 15 * MIN;
/** The timeline keeps one board per 30 s past the last minute anyway (core.ts THIN_STEP_MS). */
export const RESTORE_STEP_MS = 30_000;
/** How far back stored lines are looked for: older ones are on no board, and recorded again if seen. */
export const HISTORY_LOOKBACK_MS = 48 * 60 * MIN;
/** A game that started this long before a board is over; lines history still holds are left out. */
const GAME_OVER_AFTER_MS = 5 * 60 * MIN;

const keyOf = (p: LineChange) => `${p.book}|${p.gameId}|${p.playerKey}|${p.stat}`;

/** The book views at `at` from the posted lines then. */
function viewsAt(books: readonly Book[], games: Map<string, HistoryGame>, posted: Map<string, LineChange>, at: number) {
  const views: BookView[] = [];
  for (const book of books) {
    const lines: QuotedLine[] = [];
    const slateGames = new Map<string, SlateGame>();
    for (const p of posted.values()) {
      const game = games.get(p.gameId);
      if (p.book !== book || p.line === null || !game || game.startMs < at - GAME_OVER_AFTER_MS) continue;
      lines.push(quoteOfPoint({ ...p, line: p.line }));
      if (!slateGames.has(game.id)) {
        slateGames.set(game.id, {
          id: game.id,
          sport: game.sport,
          homeTeam: game.homeTeam,
          awayTeam: game.awayTeam,
          homeKnown: true,
          startMs: game.startMs,
          state: at < game.startMs ? 'pre' : 'live',
        });
      }
    }
    if (lines.length > 0) views.push({ book, fetchedAt: at, games: [...slateGames.values()], lines });
  }
  return views;
}

/**
 * Rebuilds the boards of the last RESTORE_WINDOW_MS from history and resumes line tracking
 * from it. Returns how many boards and how many lines' latest points it found.
 */
export async function restoreFromHistory(
  core: FeedCore,
  history: LineHistoryStore,
  books: readonly Book[],
  nowMs: number,
): Promise<{ boards: number; lines: number }> {
  const from = nowMs - RESTORE_WINDOW_MS;
  const posted = new Map((await history.latestPoints(from - HISTORY_LOOKBACK_MS, from)).map((p) => [keyOf(p), p]));
  const later = await history.pointsBetween(from, nowMs);
  // Boards only up to the newest stored point: the books' state after it is not known.
  const until = later.length > 0 ? (later[later.length - 1] as LineChange).at : Number.NEGATIVE_INFINITY;
  let next = 0;
  const advanceTo = (at: number) => {
    for (; next < later.length && (later[next] as LineChange).at <= at; next++) {
      const p = later[next] as LineChange;
      posted.set(keyOf(p), p);
    }
  };
  let boards = 0;
  if (until >= from) {
    const games = new Map((await history.gamesStartingAfter(from - GAME_OVER_AFTER_MS)).map((g) => [g.id, g]));
    for (let at = from; at <= until; at += RESTORE_STEP_MS) {
      advanceTo(at);
      const views = viewsAt(books, games, posted, at);
      if (views.length === 0) continue;
      core.restoreBoard(views, at);
      boards++;
    }
  }
  advanceTo(nowMs);
  core.resumeFrom([...posted.values()]);
  return { boards, lines: posted.size };
}
