/**
 * The simulated upstream (@propsfeed/sim) as the server sees it, and the one server file that
 * imports it (a dependency rule checks): its books started on loopback, polled at their URLs
 * as the real books are; and for the backfill, a replay of their wire payloads at any moment
 * and of the past games, keyed as the server keys players.
 */
import type { SportId } from '@propsfeed/contract';
import {
  BACKFILL_SPAN_MS,
  renderPrizePicks,
  renderUnderdog,
  SIM_SPORTS,
  type SimServer,
  SimWorld,
  pastGameLogs as simPastGameLogs,
  startSimBooks as startSimBooksThread,
} from '@propsfeed/sim';
import { playerKey } from '../books/names';
import type { GameLog } from '../history/types';
import { startWorker } from '../threads/start';

export type { SimServer };
export { BACKFILL_SPAN_MS, SimWorld };

/** The simulated books in a thread of their own, started as the server starts its threads. */
export function startSimBooks(
  opts: Omit<Parameters<typeof startSimBooksThread>[0], 'startWorker'>,
): Promise<SimServer> {
  return startSimBooksThread({ ...opts, startWorker });
}

/** The sports the simulated books list (PrizePicks is asked for each). */
export const SIM_SPORT_IDS: readonly SportId[] = SIM_SPORTS.map((sport) => sport.id);

/** The simulated books' wire payloads at a moment: PrizePicks' per sport, Underdog's whole board. */
interface SimReplay {
  prizepicks(sport: SportId, at: number): unknown;
  underdog(at: number): unknown;
}

export function replayOf(world: SimWorld): SimReplay {
  return {
    prizepicks: (sport, at) => renderPrizePicks(world, sport, at),
    underdog: (at) => renderUnderdog(world, at),
  };
}

/** Every simulated player's past games before `now` (a season's), as the server's recorded game logs. */
export function pastGameLogs(world: SimWorld, now: number): GameLog[] {
  // A player's stats of a game come together: his key is made once for them.
  let last: { player: string; team: string; key: string } | undefined;
  return simPastGameLogs(world, now).map(({ sport, player, team, opponent, home, date, stat, value }) => {
    if (last?.player !== player || last.team !== team) last = { player, team, key: playerKey(player, team) };
    return { sport, player, playerKey: last.key, team, opponent, home, date, stat, value, source: 'recorded' };
  });
}
