/**
 * The oracle: the best probability anyone could give a simulated prop, from the simulated
 * player's true distribution in that game (his mean × his game factor: world.ts draws every
 * final from it). Pre-game it is that
 * distribution; in-game it is the value shown so far plus the true distribution of what is
 * left (world.ts draws each in-game path as independent increments). For the
 * project's own tools (the backtest, tests), never for the API (DESIGN.md: "The simulator's truth").
 */
import { lawOfRest, pmfOfSum, sidesAt, type TrueModel, wholePmf } from './distributions';
import type { SimGame, SimPlayer, SimWorld } from './world';

export interface OracleChances {
  pOver: number;
  pUnder: number;
  pPush: number;
}

/** One base stat of a prop: its true model, how many times the prop counts it, and its value so far. */
export interface OraclePart {
  model: TrueModel;
  weight: number;
  /** The value shown so far (0 pre-game). */
  soFar: number;
}

/**
 * P(final = k | soFar shown at `accrued` of the game) for one base stat. The simulator spreads
 * each final over the game's steps as independent increments (Poisson events uniformly, a
 * negative binomial's by Dirichlet(r / steps) weights), so what is left is the player's
 * distribution over the share left: soFar + Poisson(mean·left) or NB(r·left, same p).
 * Pre-game (accrued 0) it is the prior; final (accrued 1) it is certain.
 */
export function conditionedPmf(model: TrueModel, accrued: number, soFar: number): number[] {
  if (accrued <= 0) return wholePmf(model);
  if (accrued >= 1) return Object.assign(new Array<number>(soFar + 1).fill(0), { [soFar]: 1 });
  const rest = wholePmf(lawOfRest(model, 1 - accrued));
  return [...new Array<number>(soFar).fill(0), ...rest];
}

/** The chances of a prop summing `parts` at `line`, `accrued` of the game played. */
export function oracleChances(parts: readonly OraclePart[], accrued: number, line: number): OracleChances {
  let sum = [1];
  for (const part of parts) {
    const pmf = conditionedPmf(part.model, accrued, part.soFar);
    const scaled =
      part.weight === 1 ? pmf : pmf.flatMap((p, k) => (k === 0 ? [p] : [...new Array(part.weight - 1).fill(0), p]));
    sum = pmfOfSum(sum, scaled);
  }
  return sidesAt(sum, line);
}

/** The oracle's chances of `stat` of `player` in `game` at `line`, as the game stands at `t`. */
export function oracle(world: SimWorld, game: SimGame, player: SimPlayer, stat: string, line: number, t: number) {
  const accrued = world.accrued(game, t);
  const weights = new Map<string, number>();
  for (const c of world.components(game.sport, stat)) weights.set(c, (weights.get(c) ?? 0) + 1);
  const parts: OraclePart[] = [...weights].map(([base, weight]) => ({
    model: world.baseModel(game, player, base),
    weight,
    soFar: accrued > 0 ? world.value(game, player, base, t) : 0,
  }));
  return oracleChances(parts, accrued, line);
}
