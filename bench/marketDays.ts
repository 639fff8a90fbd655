/**
 * The simulated market scored against the simulator's results, for the project's own tools
 * (`pnpm bench:market`, tests): each priced Underdog line de-vigged at the game's last
 * pre-game moment (the lock) and at points in-game, settled by the final value the game logs
 * record. Never served by the API.
 */
import { resultOf } from '@propsfeed/server/history';
import { devigMultiplicative, type Outcome } from '@propsfeed/server/model';
import { SIM_SPORTS, type SimGame, type SimWorld } from '@propsfeed/sim';

/** In-game snapshots: these fractions of each game's span. */
export const LIVE_POINTS = [0.25, 0.5, 0.75];

/** The priced Underdog lines of a game at `t`, settled by the game's final values. */
export function marketOutcomes(world: SimWorld, game: SimGame, t: number): Outcome[] {
  const out: Outcome[] = [];
  for (const prop of world.props(game, t)) {
    if (prop.udLine === undefined || prop.udOver === undefined || prop.udUnder === undefined || prop.udOneSided)
      continue;
    const result = resultOf(world.value(game, prop.player, prop.stat, game.endMs), prop.udLine);
    if (result === 'push') continue;
    out.push({ q: devigMultiplicative(prop.udOver, prop.udUnder).pOver, over: result === 'over' });
  }
  return out;
}

/** Pre-game (at lock) and in-game outcomes of every game starting in [fromMs, toMs). */
export function marketDays(world: SimWorld, fromMs: number, toMs: number): { lock: Outcome[]; live: Outcome[] } {
  const lock: Outcome[] = [];
  const live: Outcome[] = [];
  for (const sport of SIM_SPORTS) {
    for (const game of world.gamesStarting(sport, fromMs, toMs)) {
      for (const o of marketOutcomes(world, game, game.startMs - 1)) lock.push(o);
      for (const f of LIVE_POINTS) {
        const t = Math.round(game.startMs + f * (game.endMs - game.startMs));
        for (const o of marketOutcomes(world, game, t)) live.push(o);
      }
    }
  }
  return { lock, live };
}
