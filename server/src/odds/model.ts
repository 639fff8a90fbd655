/**
 * The service's estimate of a player's stat in a game: a mean blended from three reads — the
 * market (the mean at which a priced book's de-vigged chance holds at its line; without prices,
 * the line itself), the season's logs (recency-weighted) and recent form (the projection) — with
 * weights that are each at least 0 and sum to 1, so the mean always lies within its inputs. The
 * logs' weights shrink with the player's games (n / (n + k), k fitted), so a thin season weighs
 * less than a full one. They are fitted by least squares on earlier days' finals, never on the
 * day predicted (fit.ts), as is a spread whose over-dispersion holds the estimate's own error
 * too. Counts are negative binomial, larger stats a continuity-corrected normal, centred on the
 * blended mean itself. This file is the math served with the fitted coefficients.
 */
import type { ProbabilityBasis, SportId } from '@propsfeed/contract';
import { COUNT_MEAN_LIMIT, calibrateMean, type StatModel } from './distribution';

/** Each season game weighs this much of the next newer one: old games count, recent ones more. */
export const SEASON_DECAY = 0.985;

/**
 * How the logs are blended with the market in one band: at full strength the season read earns
 * `season` and recent form `form` of the weight (the market the rest), each shrunk by the
 * player's games n as n / (n + k), so a thin season weighs less than a full one. All four are
 * fitted, never set by hand; season, form ≥ 0 and season + form ≤ 1, so the market's weight is
 * never negative and the mean lies within its inputs.
 */
export interface Blend {
  season: number;
  form: number;
  kSeason: number;
  kForm: number;
}

/** The blend that reads the market alone (a band with nothing to fit on). */
export const MARKET_ONLY: Blend = { season: 0, form: 0, kSeason: 1, kForm: 1 };

/**
 * The market means that bound the bands weights are fitted in (the last open-ended): a season
 * read of a rare stat (a hockey player's goals) is noisier, as a share of its mean, than a
 * common one's (his saves), so it earns less weight against the market.
 */
export const MEAN_BANDS = [1.5, 4, 12] as const;

/** The band of a market mean: 0 below MEAN_BANDS[0], …, MEAN_BANDS.length above the last. */
export function bandOf(mean: number): number {
  const i = MEAN_BANDS.findIndex((bound) => mean < bound);
  return i < 0 ? MEAN_BANDS.length : i;
}

/** Which data a set of coefficients was fitted on: the real books' lines and results, or the simulator's. */
export type CoefficientsKind = 'real' | 'simulated';

/** What the weights and spreads were fitted on, and the fit. */
export interface Coefficients {
  kind: CoefficientsKind;
  /** Where a book prices the prop: the blend per band of the market mean (bandOf). */
  priced: readonly Blend[];
  /** Where none does (the market read is the line), per band likewise. */
  unpriced: readonly Blend[];
  /** Over-dispersion d (variance = mean + d·mean²) per `sport|stat`, and per `sport` as the fallback. */
  dispersion: Readonly<Record<string, number>>;
  /**
   * The part of it that is a player's own game-to-game spread (his logs' variance about his
   * own mean), keyed likewise; the rest is the estimate's doubt about his mean, which a live
   * game's value so far updates (odds/live.ts).
   */
  inherent: Readonly<Record<string, number>>;
  /**
   * In-game chances' log-odds are scaled by this (1: as modelled), fitted on earlier days' live
   * snapshots: a live distribution a shade too wide or narrow is corrected as a whole.
   */
  liveScale: number;
  /** The days and count the fit read, e.g. "seed 20261122, 2026-10-18..2026-10-31, 61,204 finals". */
  fittedOn: string;
  /**
   * Bases whose chances were not calibrated on the days they were scored on (a bin outside
   * max(3 points, 2 standard errors)), with why: their edges are withheld.
   */
  withheld: Readonly<Partial<Record<ProbabilityBasis, string>>>;
}

export interface Reads {
  /** Recency-weighted mean of every logged game (null with fewer than MIN_READ_GAMES). */
  season: number | null;
  /** The projection: the newest games' exponentially weighted mean. */
  form: number | null;
  /** The market's mean (priced) or the line (unpriced). */
  market: number;
  priced: boolean;
  games: number;
}

/** Fewer logged games than this and the logs are not read (the market alone). */
export const MIN_READ_GAMES = 5;

/** The season mean: every game, each SEASON_DECAY of the next newer one (values newest first). */
export function seasonMean(values: readonly number[]): number | null {
  if (values.length < MIN_READ_GAMES) return null;
  let sum = 0;
  let weights = 0;
  let w = 1;
  for (const v of values) {
    sum += w * v;
    weights += w;
    w *= SEASON_DECAY;
  }
  return sum / weights;
}

export function dispersionOf(coef: Coefficients, sport: SportId, stat: string): number {
  return coef.dispersion[`${sport}|${stat}`] ?? coef.dispersion[sport] ?? 0.05;
}

/** A player's own over-dispersion of the stat (Coefficients.inherent), undefined where none was fitted. */
export function inherentOf(coef: Coefficients, sport: SportId, stat: string): number | undefined {
  return coef.inherent[`${sport}|${stat}`] ?? coef.inherent[sport];
}

/** Negative binomial (a Poisson at no over-dispersion) below COUNT_MEAN_LIMIT, else a continuity-corrected normal. */
export function modelFor(mean: number, dispersion: number): StatModel {
  const m = Math.max(mean, 0.01);
  if (m < COUNT_MEAN_LIMIT) {
    return dispersion > 1e-4 ? { kind: 'negbin', mean: m, r: 1 / dispersion } : { kind: 'poisson', mean: m };
  }
  return { kind: 'normal', mean: m, sd: Math.sqrt(m + dispersion * m * m), integer: true };
}

/** The mean at which `pOver` (de-vigged, given no push) holds at `line`, with the spread fitted for the stat. */
export function marketMean(line: number, pOver: number, dispersion: number): number {
  let model = modelFor(Math.max(line, 0.5), dispersion);
  // Twice: the spread follows the mean it is centred on.
  for (let i = 0; i < 2; i++) model = modelFor(calibrateMean(model, line, pOver).mean, dispersion);
  return model.mean;
}

/** The weights of one prop's reads: each ≥ 0, summing to 1. */
export interface BlendWeights {
  market: number;
  season: number;
  form: number;
}

/** A weight shrunk by the player's logged games: n / (n + k). */
export const shrink = (games: number, k: number) => games / (games + k);

/** The weights a prop's reads get: a read that is missing gives its weight to the market. */
export function blendWeights(reads: Reads, coef: Coefficients): BlendWeights {
  const blend = (reads.priced ? coef.priced : coef.unpriced)[bandOf(reads.market)] ?? MARKET_ONLY;
  const season = reads.season === null ? 0 : blend.season * shrink(reads.games, blend.kSeason);
  const form = reads.form === null ? 0 : blend.form * shrink(reads.games, blend.kForm);
  return { market: 1 - season - form, season, form };
}

/** The blended mean: the market, season and form reads weighed by blendWeights, so it lies within them. */
export function stackedMean(reads: Reads, coef: Coefficients): number {
  const w = blendWeights(reads, coef);
  const mean = w.market * reads.market + w.season * (reads.season ?? 0) + w.form * (reads.form ?? 0);
  return Math.max(0.01, mean);
}
