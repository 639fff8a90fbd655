/**
 * The oracle: the best probability anyone could give a simulated prop, from the simulated
 * player's true distribution (world.ts draws every final from it). Pre-game it is that
 * distribution; in-game it is the distribution conditioned on the value shown so far, which
 * the simulator accrues as floor(final × share of the game played) per base stat. For the
 * project's own tools (the backtest, tests), never for the API (DESIGN.md: "The simulator's truth").
 */
import { convolve, integerPmf, type StatModel, sidesOfPmf } from '../odds/distribution';
import type { SimGame, SimPlayer, SimWorld } from './world';

export interface OracleChances {
  pOver: number;
  pUnder: number;
  pPush: number;
}

/** One base stat of a prop: its true model, how many times the prop counts it, and its value so far. */
export interface OraclePart {
  model: StatModel;
  weight: number;
  /** floor(final × accrued), the value shown so far (0 pre-game). */
  soFar: number;
}

/**
 * P(final = k | floor(k × accrued) = soFar) for one base stat: the prior restricted to the
 * finals that show `soFar` at this share of the game, renormalized. Pre-game (accrued 0) it is
 * the prior; final (accrued 1) it is certain.
 */
export function conditionedPmf(model: StatModel, accrued: number, soFar: number): number[] {
  const prior = integerPmf(model);
  if (accrued <= 0) return prior;
  if (accrued >= 1) return Object.assign(new Array<number>(soFar + 1).fill(0), { [soFar]: 1 });
  // floor(k·f) = v  ⇔  v/f ≤ k < (v+1)/f
  const from = Math.ceil(soFar / accrued - 1e-9);
  const to = Math.ceil((soFar + 1) / accrued - 1e-9) - 1;
  const size = Math.max(prior.length, to + 1);
  const pmf = new Array<number>(size).fill(0);
  let total = 0;
  for (let k = from; k <= to; k++) {
    const p = prior[k] ?? 0;
    pmf[k] = p;
    total += p;
  }
  // A value the prior gives no mass (far in its tail): the finals that show it, alike.
  if (!(total > 0)) {
    for (let k = from; k <= to; k++) pmf[k] = 1 / (to - from + 1);
    return pmf;
  }
  return pmf.map((p) => p / total);
}

/** The chances of a prop summing `parts` at `line`, `accrued` of the game played. */
export function oracleChances(parts: readonly OraclePart[], accrued: number, line: number): OracleChances {
  let sum = [1];
  for (const part of parts) {
    const pmf = conditionedPmf(part.model, accrued, part.soFar);
    const scaled =
      part.weight === 1 ? pmf : pmf.flatMap((p, k) => (k === 0 ? [p] : [...new Array(part.weight - 1).fill(0), p]));
    sum = convolve(sum, scaled);
  }
  return sidesOfPmf(sum, line);
}

/** The oracle's chances of `stat` of `player` in `game` at `line`, as the game stands at `t`. */
export function oracle(world: SimWorld, game: SimGame, player: SimPlayer, stat: string, line: number, t: number) {
  const accrued = world.accrued(game, t);
  const weights = new Map<string, number>();
  for (const c of world.components(game.sport, stat)) weights.set(c, (weights.get(c) ?? 0) + 1);
  const parts: OraclePart[] = [...weights].map(([base, weight]) => ({
    model: world.baseModel(game.sport, player, base),
    weight,
    soFar: accrued > 0 ? world.value(game, player, base, t) : 0,
  }));
  return oracleChances(parts, accrued, line);
}
