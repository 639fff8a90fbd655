/**
 * Past games of every simulated player, as game logs: the schedule's games that ended before
 * `now`, reaching back far enough that each player has at least `minGames` per stat. They
 * are the same games and values the live simulation played, so recorded finals agree.
 */
import { playerKey } from '../books/names';
import type { GameLog } from '../history/types';
import { SIM_SPORTS, type SimWorld } from './world';

const MIN = 60_000;

export function pastGameLogs(world: SimWorld, now: number, minGames = 10): GameLog[] {
  const logs: GameLog[] = [];
  for (const sport of SIM_SPORTS) {
    // A team plays about once every (teams / 2) games of the schedule.
    const spanMs = (minGames + 2) * (sport.teams.length / 2) * sport.spacingMin * MIN;
    const ended = now - sport.durationMin * MIN;
    for (const game of world.gamesStarting(sport, ended - spanMs, ended)) {
      const date = new Date(game.startMs).toISOString().slice(0, 10);
      for (const [team, opponent, home] of [
        [game.home, game.away, true],
        [game.away, game.home, false],
      ] as const) {
        for (const player of world.roster(sport, team)) {
          for (const stat of player.slot.posted) {
            logs.push({
              sport: sport.id,
              player: player.name,
              playerKey: playerKey(player.name, team),
              team,
              opponent,
              home,
              date,
              stat,
              value: world.value(game, player, stat, game.endMs),
              source: 'recorded',
            });
          }
        }
      }
    }
  }
  return logs;
}
