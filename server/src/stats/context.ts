/**
 * A player's context for one stat, from their game logs and today's line: averages per mode,
 * recent form against the line, sample size and hit rate. Pure: the query feeds it logs.
 */
import type { SportId, StatContext } from '@propsfeed/contract';
import { seasonOf } from './season';

/** The part of a game-log entry the context and the projection read. */
export interface PlayedGame {
  /** `YYYY-MM-DD`, the game's date. */
  date: string;
  opponent: string;
  home: boolean;
  value: number;
}

/** How many of the newest games `recentForm` lists. */
export const RECENT_FORM_GAMES = 10;

/**
 * The sample is the player's games of the current season (the season of their newest game, so
 * an off-season still shows the last one): season, home and away averages and the hit rate read
 * it. The last 10 and last 5 are the newest games whatever their season.
 */
export function statContext(
  sport: SportId,
  stat: string,
  games: readonly PlayedGame[],
  line: number | null,
): Omit<StatContext, 'propsfeedProjection'> {
  const newestFirst = [...games].sort(byDateDesc);
  const newest = newestFirst[0];
  const season = newest ? newestFirst.filter((g) => seasonOf(sport, g.date) === seasonOf(sport, newest.date)) : [];
  return {
    stat,
    line,
    sampleN: season.length,
    averages: {
      season: mean(season),
      last10: mean(newestFirst.slice(0, 10)),
      last5: mean(newestFirst.slice(0, 5)),
      home: mean(season.filter((g) => g.home)),
      away: mean(season.filter((g) => !g.home)),
    },
    recentForm: newestFirst.slice(0, RECENT_FORM_GAMES).map((g) => ({
      date: g.date,
      opponent: g.opponent,
      home: g.home,
      value: g.value,
      hit: line === null ? null : g.value > line,
    })),
    hitRate:
      line === null || season.length === 0
        ? null
        : round(season.filter((g) => g.value > line).length / season.length, 4),
  };
}

/** Newest first; the same date keeps its given order. */
export function byDateDesc(a: PlayedGame, b: PlayedGame): number {
  return a.date < b.date ? 1 : a.date > b.date ? -1 : 0;
}

function mean(games: readonly PlayedGame[]): number | null {
  if (games.length === 0) return null;
  return round(games.reduce((sum, g) => sum + g.value, 0) / games.length, 2);
}

export function round(value: number, places: number): number {
  const f = 10 ** places;
  return Math.round(value * f) / f;
}
