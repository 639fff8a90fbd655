/**
 * The service's estimate of a player's stat in a game: a mean stacked from three reads —
 * the season's logs (recency-weighted), recent form (the projection) and the market (the
 * mean at which a priced book's de-vigged chance holds at its line; without prices, the line
 * itself) — with weights fitted by least squares on earlier days' finals, never on the day
 * predicted; and a spread whose over-dispersion is fitted on the same earlier days' misses,
 * so it holds the estimate's own error too. Counts are negative binomial, larger stats a
 * continuity-corrected normal.
 */
import type { SportId } from '@propsfeed/contract';
import { COUNT_MEAN_LIMIT, calibrateMean, type StatModel } from './distribution';

/** Each season game weighs this much of the next newer one: old games count, recent ones more. */
export const SEASON_DECAY = 0.985;
/** Weights per read: intercept, season mean, recent form (all as shares of the market mean). */
export type Weights = readonly [number, number, number];

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

/** What the weights and spreads were fitted on, and the fit. */
export interface Coefficients {
  /** Where a book prices the prop: weights per band of the market mean (bandOf). */
  priced: readonly Weights[];
  /** Where none does (the market read is the line), per band likewise. */
  unpriced: readonly Weights[];
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

/** The stacked mean: weights on the reads, missing logs read as the market. */
export function stackedMean(reads: Reads, coef: Coefficients): number {
  const m = reads.market;
  const [c, a, b] = (reads.priced ? coef.priced : coef.unpriced)[bandOf(m)] ?? [1, 0, 0];
  return Math.max(0.01, m * (c + a * ((reads.season ?? m) / m) + b * ((reads.form ?? m) / m)));
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

function solve3(a: number[][], b: number[]): [number, number, number] {
  const m = a.map((row, i) => [...row, b[i] as number]);
  for (let col = 0; col < 3; col++) {
    let pivot = col;
    for (let r = col + 1; r < 3; r++)
      if (Math.abs((m[r] as number[])[col] as number) > Math.abs((m[pivot] as number[])[col] as number)) pivot = r;
    [m[col], m[pivot]] = [m[pivot] as number[], m[col] as number[]];
    const p = (m[col] as number[])[col] as number;
    if (Math.abs(p) < 1e-12) return [0, 0, 0];
    for (let r = 0; r < 3; r++) {
      if (r === col) continue;
      const f = ((m[r] as number[])[col] as number) / p;
      for (let k = col; k < 4; k++)
        (m[r] as number[])[k] = ((m[r] as number[])[k] as number) - f * ((m[col] as number[])[k] as number);
    }
  }
  return [0, 1, 2].map((i) => ((m[i] as number[])[3] as number) / ((m[i] as number[])[i] as number)) as [
    number,
    number,
    number,
  ];
}

/** final / market ≈ c + a·season/market + b·form/market, by weighted least squares (a lone market read: 1, 0, 0). */
function fitWeights(samples: readonly Sample[]): Weights {
  const xtx = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const xty = [0, 0, 0];
  for (const s of samples) {
    const m = s.reads.market;
    if (!(m > 0)) continue;
    const x = [1, (s.reads.season ?? m) / m, (s.reads.form ?? m) / m];
    const y = s.final / m;
    const w = sampleWeight(m);
    for (let i = 0; i < 3; i++) {
      xty[i] = (xty[i] as number) + w * (x[i] as number) * y;
      for (let j = 0; j < 3; j++)
        (xtx[i] as number[])[j] = ((xtx[i] as number[])[j] as number) + w * (x[i] as number) * (x[j] as number);
    }
  }
  // A ridge towards no intercept and the logs' weights at 0 keeps a thin fit near the market's own read.
  for (let i = 0; i < 3; i++) (xtx[i] as number[])[i] = ((xtx[i] as number[])[i] as number) + 1;
  xty[0] = (xty[0] as number) + 1;
  return solve3(xtx, xty);
}

/** Samples needed for a stat's own dispersion (else its sport's). */
const MIN_DISPERSION_SAMPLES = 150;
/** Logged games a sample needs before its spread is read as the player's own. */
const MIN_OWN_SPREAD_GAMES = 10;

/**
 * Weights and dispersions fitted on the samples of days before `before` only: the day being
 * predicted, and any later, never shape its own estimate.
 */
export function fitCoefficients(samples: readonly Sample[], before: string, label: string): Coefficients {
  const earlier = samples.filter((s) => s.date < before);
  const bands = (priced: boolean) =>
    [...MEAN_BANDS, Number.POSITIVE_INFINITY].map((_, band) =>
      fitWeights(earlier.filter((s) => s.reads.priced === priced && bandOf(s.reads.market) === band)),
    );
  const priced = bands(true);
  const unpriced = bands(false);
  const coef: Coefficients = { priced, unpriced, dispersion: {}, inherent: {}, liveScale: 1, fittedOn: '' };
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
  const round = (w: Weights) => w.map((v) => Math.round(v * 10_000) / 10_000) as unknown as Weights;
  return {
    priced: priced.map(round),
    unpriced: unpriced.map(round),
    dispersion,
    inherent,
    liveScale: 1,
    fittedOn: `${label}, ${days[0] ?? '-'}..${days.at(-1) ?? '-'}, ${earlier.length} finals`,
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
