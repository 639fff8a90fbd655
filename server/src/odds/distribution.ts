/**
 * A player's stat as a distribution fitted to their game logs, and the chance of the over,
 * the under and a push at a line. Counts with small means (threes, rebounds, strikeouts) are
 * discrete: Poisson, or negative binomial when the logs vary more than a Poisson allows.
 * Larger or fractional stats (points, yardage, fantasy points) are a normal with the logs'
 * spread; for integer-valued stats its probabilities are continuity-corrected, so an integer
 * line still has a push.
 */

export interface SideProbabilities {
  pOver: number;
  pUnder: number;
  /** Present only where the line can land exactly (an integer line on an integer-valued stat). */
  pPush?: number;
}

export type StatModel =
  | { kind: 'poisson'; mean: number }
  | { kind: 'negbin'; mean: number /** dispersion: variance = mean + mean² / r */; r: number }
  | { kind: 'normal'; mean: number; sd: number /** the stat only takes integer values */; integer: boolean };

/** Fewer games than this and there is no distribution (nor a probability from it). */
export const MIN_DISTRIBUTION_GAMES = 8;
/** The newest games whose spread the distribution takes. */
export const DISTRIBUTION_WINDOW = 20;
/** Integer stats with a mean below this are modelled as counts; others as a normal. */
export const COUNT_MEAN_LIMIT = 15;

export type Fit = { model: StatModel; n: number; variance: number } | { none: string };

/**
 * The distribution of a stat whose centre is `mean` (the projection) and whose spread is that
 * of `values` (newest first; the first DISTRIBUTION_WINDOW are read). `{none}` says why not.
 */
export function fitStat(values: readonly number[], mean: number): Fit {
  const sample = values.slice(0, DISTRIBUTION_WINDOW);
  const n = sample.length;
  if (n < MIN_DISTRIBUTION_GAMES) return { none: `${n} recorded games (at least ${MIN_DISTRIBUTION_GAMES} needed)` };
  const sampleMean = sample.reduce((a, b) => a + b, 0) / n;
  const variance = sample.reduce((a, v) => a + (v - sampleMean) ** 2, 0) / (n - 1);
  if (!(mean > 0) || !(variance > 0)) return { none: `no spread in the last ${n} games` };
  const integer = sample.every(Number.isInteger);
  if (integer && mean < COUNT_MEAN_LIMIT) {
    // A variance at or below the mean is a Poisson's (under-dispersion has no negative binomial).
    if (variance <= sampleMean) return { model: { kind: 'poisson', mean }, n, variance };
    return { model: { kind: 'negbin', mean, r: sampleMean ** 2 / (variance - sampleMean) }, n, variance };
  }
  return { model: { kind: 'normal', mean, sd: Math.sqrt(variance), integer }, n, variance };
}

/** Hart's coefficients, highest power first. */
const HART_NUMERATOR = [
  3.52624965998911e-2, 0.700383064443688, 6.37396220353165, 33.912866078383, 112.079291497871, 221.213596169931,
  220.206867912376,
];
const HART_DENOMINATOR = [
  8.83883476483184e-2, 1.75566716318264, 16.064177579207, 86.7807322029461, 296.564248779674, 637.333633378831,
  793.826512519948, 440.413735824752,
];

/** The polynomial with `coefficients` (highest power first) at x. */
function horner(coefficients: readonly number[], x: number): number {
  let value = 0;
  for (const c of coefficients) value = value * x + c;
  return value;
}

/**
 * Φ(x), by Hart's double-precision rational approximation (as given by West, "Better
 * approximations to cumulative normal functions", 2005): within 2e-15 of the series it replaced,
 * at a fraction of its cost, since every probability of a normal model calls it.
 */
export function normalCdf(x: number): number {
  if (x < -8) return 0;
  if (x > 8) return 1;
  const a = Math.abs(x);
  const e = Math.exp(-0.5 * a * a);
  let tail: number;
  if (a < 7.07106781186547) {
    tail = (e * horner(HART_NUMERATOR, a)) / horner(HART_DENOMINATOR, a);
  } else {
    let b = a + 0.65;
    b = a + 4 / b;
    b = a + 3 / b;
    b = a + 2 / b;
    b = a + 1 / b;
    tail = e / b / 2.506628274631;
  }
  return x > 0 ? 1 - tail : tail;
}

type CountModel = Extract<StatModel, { kind: 'poisson' | 'negbin' }>;

/**
 * P(X = 0) of a count model. The negative binomial's (r / (r + mean))^r is taken as
 * exp(-r · ln(1 + mean / r)): logs whose variance is a hair above their mean give a huge r,
 * where the power form rounds its base to 1 and answers 1 instead of about e^-mean.
 */
function countP0(model: CountModel): number {
  if (model.kind === 'poisson') return Math.exp(-model.mean);
  return Math.exp(-model.r * Math.log1p(model.mean / model.r));
}

/** P(X = i) / P(X = i - 1): the recursion the CDF and the quantile walk. */
function countRatio(model: CountModel, i: number): number {
  return model.kind === 'poisson' ? model.mean / i : ((i - 1 + model.r) / i) * (model.mean / (model.r + model.mean));
}

/** P(X ≤ k) and P(X = k) of a count model, summed from 0. */
function countCdf(model: CountModel, k: number): { cdf: number; pmf: number } {
  if (k < 0) return { cdf: 0, pmf: 0 };
  let pmf = countP0(model);
  let cdf = pmf;
  for (let i = 1; i <= k; i++) {
    pmf *= countRatio(model, i);
    cdf += pmf;
  }
  return { cdf: Math.min(1, cdf), pmf };
}

/** The least count whose P(X ≤ k) reaches `u`: a draw from a count model by inversion of a uniform `u`. */
export function countQuantile(model: CountModel, u: number): number {
  let pmf = countP0(model);
  let cdf = pmf;
  let k = 0;
  while (cdf < u && k < 10_000) {
    k++;
    pmf *= countRatio(model, k);
    cdf += pmf;
  }
  return k;
}

/** Over, under and (on an integer line of an integer-valued stat) push at `line`. */
export function probabilitiesAt(model: StatModel, line: number): SideProbabilities {
  const onInteger = Number.isInteger(line);
  if (model.kind === 'normal') {
    const z = (x: number) => normalCdf((x - model.mean) / model.sd);
    if (!model.integer) {
      const pUnder = z(line);
      return { pOver: 1 - pUnder, pUnder };
    }
    if (!onInteger) {
      const pUnder = z(Math.floor(line) + 0.5);
      return { pOver: 1 - pUnder, pUnder };
    }
    const pUnder = z(line - 0.5);
    const pOver = 1 - z(line + 0.5);
    return { pOver, pUnder, pPush: 1 - pOver - pUnder };
  }
  if (!onInteger) {
    const pUnder = countCdf(model, Math.floor(line)).cdf;
    return { pOver: 1 - pUnder, pUnder };
  }
  const at = countCdf(model, line);
  const pUnder = at.cdf - at.pmf;
  return { pOver: 1 - at.cdf, pUnder, pPush: at.pmf };
}

/** The model with another mean (the spread's shape kept: sd, or the dispersion r). */
export function withMean(model: StatModel, mean: number): StatModel {
  return { ...model, mean };
}

/** P(over | no push) at `line`. */
function overGivenNoPush(model: StatModel, line: number): number {
  const p = probabilitiesAt(model, line);
  return p.pOver / (p.pOver + p.pUnder);
}

/**
 * The model moved (its mean shifted, its spread kept) so that P(over | no push) at `line`
 * is `pOver`: how a probability known at one book's line is carried to another's. The over
 * grows with the mean, so bisection finds it.
 */
export function calibrateMean(model: StatModel, line: number, pOver: number): StatModel {
  const spread = model.kind === 'normal' ? model.sd : Math.sqrt(Math.max(line, 1));
  let low = model.kind === 'normal' ? line - 12 * spread : 1e-9;
  let high = line + 12 * spread + 10;
  // 60 halvings take any bracket here below a double's resolution of the mean.
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (overGivenNoPush(withMean(model, mid), line) < pOver) low = mid;
    else high = mid;
  }
  return withMean(model, (low + high) / 2);
}

/** A model in a few words, for `method`: "normal mean 25.96 sd 4.25 cc" (cc: continuity-corrected). */
export function describeModel(model: StatModel): string {
  const r2 = (v: number) => String(Math.round(v * 100) / 100);
  if (model.kind === 'poisson') return `Poisson mean ${r2(model.mean)}`;
  if (model.kind === 'negbin')
    return `negative binomial mean ${r2(model.mean)} variance ${r2(model.mean + model.mean ** 2 / model.r)}`;
  return `normal mean ${r2(model.mean)} sd ${r2(model.sd)}${model.integer ? ' cc' : ''}`;
}

/**
 * A stat's distribution over the share `left` of a game, its events independent increments:
 * Poisson(mean·left), a negative binomial's r·left at the same p, a normal's mean and
 * variance scaled alike.
 */
export function remainingModel(model: StatModel, left: number): StatModel {
  if (model.kind === 'poisson') return { kind: 'poisson', mean: model.mean * left };
  if (model.kind === 'negbin') return { kind: 'negbin', mean: model.mean * left, r: model.r * left };
  return { ...model, mean: model.mean * left, sd: model.sd * Math.sqrt(left) };
}

/**
 * P(X = k) for k = 0..K of a model over whole numbers, where K reaches all but 1e-12 of the
 * mass (at most `cap`). A normal is read as rounded to the nearest whole number and floored
 * at 0 (the mass below 0.5 is 0's), which is how integer stats it models are drawn.
 */
export function integerPmf(model: StatModel, cap = 20_000): number[] {
  const pmf: number[] = [];
  if (model.kind === 'normal') {
    const at = (x: number) => normalCdf((x - model.mean) / model.sd);
    let below = at(0.5);
    pmf.push(below);
    for (let k = 1; k < cap && below < 1 - 1e-12; k++) {
      const next = at(k + 0.5);
      pmf.push(next - below);
      below = next;
      if (k > model.mean + 10 * model.sd) break;
    }
    return pmf;
  }
  let p = countP0(model);
  let total = p;
  pmf.push(p);
  for (let k = 1; k < cap && (total < 1 - 1e-12 || k <= model.mean); k++) {
    p *= countRatio(model, k);
    total += p;
    pmf.push(p);
  }
  return pmf;
}

/** Over, under and push of a whole-number distribution (pmf by value from 0) at `line`. */
export function sidesOfPmf(pmf: readonly number[], line: number): { pOver: number; pUnder: number; pPush: number } {
  let over = 0;
  let under = 0;
  let push = 0;
  pmf.forEach((p, k) => {
    if (k > line) over += p;
    else if (k < line) under += p;
    else push += p;
  });
  const total = over + under + push;
  return { pOver: over / total, pUnder: under / total, pPush: push / total };
}

/** The pmf of a sum of independent whole-number variables, each given by its pmf. */
export function convolve(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(a.length + b.length - 1).fill(0);
  a.forEach((pa, i) => {
    if (pa === 0) return;
    b.forEach((pb, j) => {
      out[i + j] = (out[i + j] ?? 0) + pa * pb;
    });
  });
  return out;
}
