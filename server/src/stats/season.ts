/** Which season a game date belongs to: seasons start in a sport's usual opening month. */
import type { SportId } from '@propsfeed/contract';

/** Month (1-12) each sport's season opens; a season runs until the next one opens. */
const SEASON_START_MONTH: Record<SportId, number> = {
  nba: 10,
  wnba: 5,
  nhl: 10,
  ncaab: 10,
  nfl: 8,
  ncaaf: 8,
  mlb: 3,
  soccer: 7,
  lol: 1,
};

/** The year the season of `date` (`YYYY-MM-DD`) opened in, e.g. 2026 for an NBA game in 2027-02. */
export function seasonOf(sport: SportId, date: string): number {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return month >= SEASON_START_MONTH[sport] ? year : year - 1;
}
