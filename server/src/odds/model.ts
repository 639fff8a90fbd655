/**
 * The service's estimate of a player's stat in a game: a mean blended from three reads — the
 * market (the mean at which a priced book's de-vigged chance holds at its line; without prices,
 * the line itself), the season's logs (recency-weighted) and recent form (the projection) — with
 * weights that are each at least 0 and sum to 1, so the mean always lies within its inputs. The
 * logs' weights shrink with the player's games (n / (n + k), k fitted), so a thin season weighs
 * less than a full one. They are fitted by least squares on earlier days' finals, never on the
 * day predicted, as is a spread whose over-dispersion holds the estimate's own error too.
 * Counts are negative binomial, larger stats a continuity-corrected normal, centred on the
 * blended mean itself.
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
const shrink = (games: number, k: number) => games / (games + k);

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

/** One settled prop the weights can be fitted on. */
export interface Sample {
  date: string;
  sport: SportId;
  stat: string;
  reads: Reads;
  final: number;
  /** The player's logged values of the stat before the day (for his own spread). */
  values?: readonly number[];
}

/** Least squares weight of a sample: a share of the market mean varies about as 1 / mean for counts. */
const sampleWeight = (m: number) => m / (1 + 0.05 * m);

/** The shrinkage constants the fit tries: n / (n + k) is 0.5 at n = k games. */
const K_GRID = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256] as const;
/** Samples a band needs before its logs' weights are fitted (else the market alone). */
const MIN_BLEND_SAMPLES = 30;

/**
 * The minimum of ½·xᵀAx − bᵀx over s, f ≥ 0, s + f ≤ 1 (A positive definite): the unconstrained
 * minimum where it is inside, else the best of the three edges' own minima.
 */
function triangleMinimum(a11: number, a12: number, a22: number, b1: number, b2: number): [number, number] {
  const q = (s: number, f: number) => 0.5 * (a11 * s * s + 2 * a12 * s * f + a22 * f * f) - b1 * s - b2 * f;
  const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
  const det = a11 * a22 - a12 * a12;
  if (det > 0) {
    const s = (a22 * b1 - a12 * b2) / det;
    const f = (a11 * b2 - a12 * b1) / det;
    if (s >= 0 && f >= 0 && s + f <= 1) return [s, f];
  }
  // f = 1 − s on the third edge: q(s, 1 − s) = ½·s²·c2 − s·c1 + const.
  const c2 = a11 - 2 * a12 + a22;
  const c1 = b1 - b2 - (a12 - a22);
  const onHyp = clamp01(c2 > 0 ? c1 / c2 : 0);
  const candidates: [number, number][] = [
    [clamp01(b1 / a11), 0],
    [0, clamp01(b2 / a22)],
    [onHyp, 1 - onHyp],
  ];
  let best = candidates[0] as [number, number];
  for (const c of candidates) if (q(c[0], c[1]) < q(best[0], best[1])) best = c;
  return best;
}

/**
 * The blend of one band: (final − market) / market ≈ s·g_s·(season − market) / market +
 * f·g_f·(form − market) / market, g = n / (n + k), by weighted least squares with s, f in the
 * triangle (s, f ≥ 0, s + f ≤ 1) for each pair of k on K_GRID, keeping the pair whose fit
 * misses least. A ridge of one sample's weight keeps a thin fit near the market alone.
 */
function fitBlend(samples: readonly Sample[]): Blend {
  const rows = samples.flatMap((s) => {
    const m = s.reads.market;
    if (!(m > 0)) return [];
    return [
      {
        w: sampleWeight(m),
        y: (s.final - m) / m,
        xs: s.reads.season === null ? 0 : (s.reads.season - m) / m,
        xf: s.reads.form === null ? 0 : (s.reads.form - m) / m,
        n: s.reads.games,
      },
    ];
  });
  if (rows.length < MIN_BLEND_SAMPLES) return MARKET_ONLY;
  let best: Blend = MARKET_ONLY;
  let bestLoss = Number.POSITIVE_INFINITY;
  for (const kSeason of K_GRID) {
    for (const kForm of K_GRID) {
      let a11 = 1;
      let a12 = 0;
      let a22 = 1;
      let b1 = 0;
      let b2 = 0;
      let yy = 0;
      for (const r of rows) {
        const xs = r.xs * shrink(r.n, kSeason);
        const xf = r.xf * shrink(r.n, kForm);
        a11 += r.w * xs * xs;
        a12 += r.w * xs * xf;
        a22 += r.w * xf * xf;
        b1 += r.w * xs * r.y;
        b2 += r.w * xf * r.y;
        yy += r.w * r.y * r.y;
      }
      const [season, form] = triangleMinimum(a11, a12, a22, b1, b2);
      const loss = yy - 2 * (b1 * season + b2 * form) + a11 * season ** 2 + 2 * a12 * season * form + a22 * form ** 2;
      if (loss < bestLoss - 1e-12) [best, bestLoss] = [{ season, form, kSeason, kForm }, loss];
    }
  }
  return best;
}

/** Samples needed for a stat's own dispersion (else its sport's). */
const MIN_DISPERSION_SAMPLES = 150;
/** Logged games a sample needs before its spread is read as the player's own. */
const MIN_OWN_SPREAD_GAMES = 10;

/**
 * Weights and dispersions fitted on the samples of days before `before` only: the day being
 * predicted, and any later, never shape its own estimate.
 */
export function fitCoefficients(
  samples: readonly Sample[],
  before: string,
  label: string,
  kind: CoefficientsKind,
): Coefficients {
  const earlier = samples.filter((s) => s.date < before);
  const bands = (priced: boolean) =>
    [...MEAN_BANDS, Number.POSITIVE_INFINITY].map((_, band) =>
      fitBlend(earlier.filter((s) => s.reads.priced === priced && bandOf(s.reads.market) === band)),
    );
  const priced = bands(true);
  const unpriced = bands(false);
  const coef: Coefficients = {
    kind,
    priced,
    unpriced,
    dispersion: {},
    inherent: {},
    liveScale: 1,
    fittedOn: '',
    withheld: {},
  };
  // d = Σ((y − μ)² − μ) / Σ μ²: the variance past a Poisson's, from the misses of the fitted mean.
  const sums = new Map<string, { num: number; den: number; n: number }>();
  for (const s of earlier) {
    const mu = stackedMean(s.reads, coef);
    for (const key of [`${s.sport}|${s.stat}`, s.sport]) {
      const t = sums.get(key) ?? { num: 0, den: 0, n: 0 };
      t.num += (s.final - mu) ** 2 - mu;
      t.den += mu * mu;
      t.n++;
      sums.set(key, t);
    }
  }
  const dispersion: Record<string, number> = {};
  for (const [key, t] of sums) {
    if (key.includes('|') && t.n < MIN_DISPERSION_SAMPLES) continue;
    dispersion[key] = Math.round(Math.max(0.005, t.num / t.den) * 10_000) / 10_000;
  }
  // A player's own spread: each sample's logs, their variance past a Poisson's about their own mean.
  const own = new Map<string, { num: number; den: number; n: number }>();
  for (const s of earlier) {
    const values = s.values ?? [];
    if (values.length < MIN_OWN_SPREAD_GAMES) continue;
    const mean = values.reduce((a, v) => a + v, 0) / values.length;
    const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
    for (const key of [`${s.sport}|${s.stat}`, s.sport]) {
      const t = own.get(key) ?? { num: 0, den: 0, n: 0 };
      t.num += variance - mean;
      t.den += mean * mean;
      t.n++;
      own.set(key, t);
    }
  }
  const inherent: Record<string, number> = {};
  for (const [key, t] of own) {
    if ((key.includes('|') && t.n < MIN_DISPERSION_SAMPLES) || !(t.den > 0)) continue;
    inherent[key] = Math.round(Math.max(0, t.num / t.den) * 10_000) / 10_000;
  }
  const days = [...new Set(earlier.map((s) => s.date))].sort();
  const r4 = (v: number) => Math.floor(v * 10_000) / 10_000;
  // Rounded down, so the two weights still sum to at most 1.
  const round = (b: Blend): Blend => ({ ...b, season: r4(b.season), form: r4(b.form) });
  return {
    kind,
    priced: priced.map(round),
    unpriced: unpriced.map(round),
    dispersion,
    inherent,
    liveScale: 1,
    fittedOn: `${label}, ${days[0] ?? '-'}..${days.at(-1) ?? '-'}, ${earlier.length} finals`,
    withheld: {},
  };
}

/** One settled live snapshot: the over's chance given no push that was published, and whether it went over. */
export interface LiveSample {
  date: string;
  q: number;
  over: boolean;
}

/**
 * The factor on the log-odds of `samples` (chances published with `current` in force) that
 * scores best by log loss on the days before `before`, times `current`: 1 when they were
 * calibrated as they stood. A search over 0.5–2 by thousandths.
 */
export function fitLiveScale(samples: readonly LiveSample[], before: string, current = 1): number {
  const rows = samples
    .filter((s) => s.date < before && s.q > 0 && s.q < 1)
    .map((s) => ({ logit: Math.log(s.q / (1 - s.q)), over: s.over }));
  if (rows.length === 0) return current;
  const loss = (b: number) => {
    let sum = 0;
    for (const r of rows) {
      const q = 1 / (1 + Math.exp(-b * r.logit));
      sum -= Math.log(r.over ? q : 1 - q);
    }
    return sum;
  };
  let best = 1;
  let bestLoss = loss(1);
  for (let b = 0.5; b <= 2.0005; b += 0.001) {
    const l = loss(b);
    if (l < bestLoss) [best, bestLoss] = [b, l];
  }
  return Math.round(best * current * 1000) / 1000;
}
