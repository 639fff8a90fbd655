/**
 * The service's own projection of a player's stat: an exponentially weighted mean of their
 * newest games, so recent form counts more than a month-old game.
 */
import type { Projection, SportId } from '@propsfeed/contract';
import { byDateDesc, type PlayedGame, round } from './context';

/** Fewer recorded games than this and there is no projection. */
export const MIN_PROJECTION_GAMES = 5;
/** The newest games the projection reads. */
export const PROJECTION_WINDOW = 10;
/** Each game weighs this much of the next newer one. */
export const PROJECTION_DECAY = 0.8;

/** Undefined with fewer than MIN_PROJECTION_GAMES games. */
export function projectStat(sport: SportId, stat: string, games: readonly PlayedGame[]): Projection | undefined {
  if (games.length < MIN_PROJECTION_GAMES) return undefined;
  const window = [...games].sort(byDateDesc).slice(0, PROJECTION_WINDOW);
  let weighted = 0;
  let weights = 0;
  window.forEach((g, i) => {
    const w = PROJECTION_DECAY ** i;
    weighted += w * g.value;
    weights += w;
  });
  return {
    value: round(weighted / weights, 2),
    sampleN: window.length,
    method: `exponentially weighted mean of last ${window.length} games (each game weighs ${PROJECTION_DECAY}× the next newer one)`,
    marketKey: `${sport}:${stat}`,
  };
}
