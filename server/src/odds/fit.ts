/**
 * Fitting the model's coefficients (model.ts) on settled props: the blend weights by least
 * squares, band by band, the dispersions from the fitted mean's misses, and the live scale by
 * log loss; each only on days before the one predicted. `pnpm backtest --fit` runs it and prints
 * the coefficients served (odds/coefficients.ts); serving never fits.
 */
import type { SportId } from '@propsfeed/contract';
import {
  type Blend,
  bandOf,
  type Coefficients,
  type CoefficientsKind,
  MARKET_ONLY,
  MEAN_BANDS,
  type Reads,
  shrink,
  stackedMean,
} from './model';

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
