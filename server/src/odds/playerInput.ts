/**
 * What a prop's chances read of the player besides its quotes, made the same way by every
 * reader of the same logs: the views from the game-log index, the lock writer and the backtest
 * from the store (see preGameChances in fair.ts for why that matters).
 */
import type { Projection, SportId } from '@propsfeed/contract';
import type { PlayedGame } from '../stats/context';
import { projectStat } from '../stats/projection';

/** What the estimate of one prop reads besides its quotes: the player's logged values of the stat, newest first, and his projection. */
export interface PlayerInput {
  sport: SportId;
  stat: string;
  values: readonly number[];
  projection?: Projection | undefined;
}

/** A logged game as the chances read it (a GameLog is one). */
export type LoggedValue = PlayedGame;

/** The UTC day a game's logs are dated by (feed/gameLogWriter.ts): its chances read only the logs of days before it. */
export function gameDay(game: { startTime: string }): string {
  return game.startTime.slice(0, 10);
}

/**
 * Newest first; two games on one date (two starts in one UTC day, a doubleheader) by opponent,
 * which the store's key makes distinct. The logs carry no start time, so which of the two came
 * later is unknown: what matters is that every reader puts them in the same order, whatever
 * order its store or index returned them in (SQLite and PostgreSQL, or one query and another,
 * break date ties differently, and the season read weighs each game by its place).
 */
export function byDateThenOpponent(a: LoggedValue, b: LoggedValue): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.opponent < b.opponent ? -1 : a.opponent > b.opponent ? 1 : 0;
}

/**
 * The player's input for a prop of a game on `day`: his logs of the stat (any order, any
 * dates) kept to those dated before `day`, so nothing from the game's own day counts even
 * where the reader holds it (the index holds an earlier game of the same UTC day; the lock
 * is made after the start), newest first, and his projection from those same logs.
 */
export function playerInputBefore(
  sport: SportId,
  stat: string,
  logs: readonly LoggedValue[],
  day: string,
): PlayerInput {
  const games = logs.filter((g) => g.date < day).sort(byDateThenOpponent);
  return { sport, stat, values: games.map((g) => g.value), projection: projectStat(sport, stat, games) };
}
