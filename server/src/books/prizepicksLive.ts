/**
 * PrizePicks' in-game board (`in_game=true`): a live projection relates to a `score` object
 * whose `details` are the player's running box score under PrizePicks' own names ("Points",
 * "ThreePointersMade", "FantasyScore"; a stat not yet recorded is absent, i.e. 0) and whose
 * `score` is the running value of that projection's stat. The game's `metadata.game_info`
 * carries the score of the game.
 */
import type { SportId } from '@propsfeed/contract';
import type { GameScore } from '../board/types';
import { scoreFrom } from './types';
import { num, type Obj, obj } from './wire';

const BASKETBALL: Record<string, readonly string[]> = {
  points: ['Points'],
  rebounds: ['Rebounds'],
  assists: ['Assists'],
  threes: ['ThreePointersMade'],
  steals: ['Steals'],
  blocks: ['BlockedShots'],
  turnovers: ['Turnovers'],
  fantasy_points: ['FantasyScore'],
  pra: ['Points', 'Rebounds', 'Assists'],
  pts_rebs: ['Points', 'Rebounds'],
  pts_asts: ['Points', 'Assists'],
  rebs_asts: ['Rebounds', 'Assists'],
  blks_stls: ['BlockedShots', 'Steals'],
};

/** Each stat key's parts in `details`, per sport whose box score names are known. */
const BOX_PARTS: Partial<Record<SportId, Record<string, readonly string[]>>> = {
  nba: BASKETBALL,
  wnba: BASKETBALL,
  ncaab: BASKETBALL,
};

/**
 * The running value of `stat` from a score object: the sum of its parts in the box score
 * where the sport's names are known, else the object's own `score`. Undefined without either.
 */
export function liveValueOf(sport: SportId, stat: string, score: Obj | undefined): number | undefined {
  const a = obj(score?.attributes);
  if (!a) return undefined;
  const details = obj(a.details);
  const parts = BOX_PARTS[sport]?.[stat];
  if (details && parts) {
    let sum = 0;
    for (const part of parts) {
      const v = details[part];
      if (v === undefined) continue; // not recorded yet: 0
      const n = num(v);
      if (n === undefined) return num(a.score);
      sum += n;
    }
    // Hundredths: a sum with FantasyScore (a decimal) must not show float noise.
    return Math.round(sum * 100) / 100;
  }
  return num(a.score);
}

/** The game's score from `metadata.game_info.score`, when both sides are whole numbers. */
export function scoreOf(info: Obj | undefined): GameScore | undefined {
  const s = obj(info?.score);
  return scoreFrom(num(s?.home), num(s?.away));
}
