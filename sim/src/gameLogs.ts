/**
 * Past games of every simulated player, as game logs: each team's last `minGames` games of
 * the calendar that ended before `now` (within LOOKBACK_WEEKS: a weekly league has fewer), so
 * every player has that many per posted stat. They
 * are the same games and values the live simulation played, so recorded finals agree.
 */
import type { SportId } from '@propsfeed/contract';
import { SIM_SPORTS, type SimWorld } from './world';

/** One player's value of one stat in one past game, as a box score lists it. */
export interface SimGameLog {
  sport: SportId;
  player: string;
  team: string;
  opponent: string;
  home: boolean;
  /** YYYY-MM-DD (UTC date of the game). */
  date: string;
  stat: string;
  value: number;
}

const MIN = 60_000;
const WEEK_MS = 7 * 24 * 60 * MIN;
/** Far enough for a season of a daily league; a weekly league has about thirty games in it, bye weeks included. */
const LOOKBACK_WEEKS = 30;

/**
 * Past games stored per player at start: a season's worth, as a real service would hold from
 * public box scores. The books' desk reads more (world.ts DESK_GAMES, every base stat), so
 * the logs tell a model nothing the books' reads do not already hold.
 */
export const SEASON_GAMES = 40;

export function pastGameLogs(world: SimWorld, now: number, minGames = SEASON_GAMES): SimGameLog[] {
  const logs: SimGameLog[] = [];
  for (const sport of SIM_SPORTS) {
    const missing = new Map(sport.teams.map((t) => [t, minGames]));
    let to = now - sport.durationMin * MIN;
    for (let week = 0; week < LOOKBACK_WEEKS && [...missing.values()].some((n) => n > 0); week++) {
      // Newest first, a week at a time, until every team has its games.
      for (const game of world.gamesStarting(sport, to - WEEK_MS, to).reverse()) {
        const date = new Date(game.startMs).toISOString().slice(0, 10);
        for (const [team, opponent, home] of [
          [game.home, game.away, true],
          [game.away, game.home, false],
        ] as const) {
          const left = missing.get(team) ?? 0;
          if (left <= 0) continue;
          missing.set(team, left - 1);
          for (const player of world.roster(sport, team)) {
            for (const stat of player.slot.posted) {
              logs.push({
                sport: sport.id,
                player: player.name,
                team,
                opponent,
                home,
                date,
                stat,
                value: world.value(game, player, stat, game.endMs),
              });
            }
          }
        }
      }
      to -= WEEK_MS;
    }
  }
  return logs;
}
