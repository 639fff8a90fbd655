/**
 * Which games a `state` filter shows: one rule for `/games`, the scan, edges, movers and a
 * player's props, so every route agrees on what a player's current props are.
 */
import { FINAL_GAMES_LISTED_HOURS, type GameState, type StateFilter } from '@propsfeed/contract';
import type { BoardGame } from '../board/types';

/** How long `/games` lists a finished game by default, after the first board that showed it final. */
export const FINAL_LISTED_MS = FINAL_GAMES_LISTED_HOURS * 60 * 60_000;

/** Whether a game's props show under `state`: absent, those of the open games (pre-game and live). */
export function propsShown(state: StateFilter | undefined, game: { state: GameState }): boolean {
  if (state === undefined) return game.state !== 'final';
  return state === 'all' || state === game.state;
}

/**
 * Whether `/games` lists a game under `state` on a board fetched at `boardAt` (its own time, so a
 * delayed view lists what it listed then): absent, the open games and those final for less than
 * FINAL_LISTED_MS.
 */
export function gameListed(
  state: StateFilter | undefined,
  game: Pick<BoardGame, 'state' | 'finalAt'>,
  boardAt: number,
): boolean {
  if (state !== undefined) return propsShown(state, game);
  return game.state !== 'final' || boardAt - (game.finalAt ?? boardAt) < FINAL_LISTED_MS;
}
