/**
 * The laws the simulator draws a stat's value from, and what follows from them: a draw by
 * inversion, a book's over chance at a line, a whole-number pmf for the oracle. The simulator's
 * own code, on purpose apart from the server's model (odds/distribution.ts): the truth a
 * backtest scores the model against must not share the model's sampling code, or a bug there
 * would agree with itself. The same mathematics, so it gives the same numbers.
 */

/**
 * A stat's law: Poisson; negative binomial (variance mean + mean² / r); or a normal, read on
 * whole numbers when `integer` (a draw rounded, floored at 0).
 */
export type TrueModel =
  | { kind: 'poisson'; mean: number }
  | { kind: 'negbin'; mean: number; r: number }
  | { kind: 'normal'; mean: number; sd: number; integer: boolean };

type CountModel = Extract<TrueModel, { kind: 'poisson' | 'negbin' }>;

/** Means below this are drawn as counts (Poisson or negative binomial), others as a rounded normal. */
export const COUNT_LIMIT = 15;

/**
 * A count law's probabilities one value at a time from 0: `p` is P(X = k), `atMost` is
 * P(X ≤ k). Each step multiplies by P(X = k) / P(X = k − 1): mean / k for a Poisson,
 * (k − 1 + r) / k × mean / (r + mean) for a negative binomial.
 */
class CountWalk {
  k = 0;
  p: number;
  atMost: number;
  private readonly odds: number;

  constructor(private readonly law: CountModel) {
    if (law.kind === 'poisson') {
      this.p = Math.exp(-law.mean);
      this.odds = 0;
    } else {
      // (r / (r + mean))^r as an exponential: a huge r (a variance a hair above the mean) would round the base to 1.
      this.p = Math.exp(-(law.r * Math.log1p(law.mean / law.r)));
      this.odds = law.mean / (law.r + law.mean);
    }
    this.atMost = this.p;
  }

  step(): void {
    const k = ++this.k;
    const { law } = this;
    this.p *= law.kind === 'poisson' ? law.mean / k : ((k - 1 + law.r) / k) * this.odds;
    this.atMost += this.p;
  }
}

/** A count law's draw for a uniform `u`: the least k with P(X ≤ k) ≥ u. */
export function drawCount(law: CountModel, u: number): number {
  const walk = new CountWalk(law);
  while (walk.atMost < u && walk.k < 10_000) walk.step();
  return walk.k;
}

/**
 * Φ(x). Near the centre Marsaglia's series (Φ(x) = ½ + φ(x)·(x + x³/3 + x⁵/(3·5) + …), every
 * term of one sign); in the tails Laplace's continued fraction of the tail's ratio to φ(x),
 * summed from a depth that reaches a double's precision.
 */
export function phi(x: number): number {
  if (x < -8) return 0;
  if (x > 8) return 1;
  const a = Math.abs(x);
  const density = Math.exp(-0.5 * a * a) / Math.sqrt(2 * Math.PI);
  if (a < 3) {
    let sum = x;
    let term = x;
    for (let n = 3; ; n += 2) {
      term *= (x * x) / n;
      const next = sum + term;
      if (next === sum) break;
      sum = next;
    }
    return 0.5 + density * sum;
  }
  let fraction = a;
  for (let n = Math.ceil(400 / (a * a)) + 8; n > 0; n--) fraction = a + n / fraction;
  const tail = density / fraction;
  return x > 0 ? 1 - tail : tail;
}

/**
 * The book's P(over | no push) at `line` for a law: on whole-number stats an integer line
 * pushes on its own value; a normal on whole numbers is continuity-corrected.
 */
export function overShare(law: TrueModel, line: number): number {
  let under: number;
  let over: number;
  if (law.kind === 'normal') {
    const at = (x: number) => phi((x - law.mean) / law.sd);
    if (law.integer && Number.isInteger(line)) {
      under = at(line - 0.5);
      over = 1 - at(line + 0.5);
    } else {
      under = at(law.integer ? Math.floor(line) + 0.5 : line);
      over = 1 - under;
    }
    return over / (over + under);
  }
  if (line < 0) return 1;
  const walk = new CountWalk(law);
  while (walk.k < Math.floor(line)) walk.step();
  const atMost = Math.min(1, walk.atMost);
  under = Number.isInteger(line) ? atMost - walk.p : atMost;
  over = 1 - atMost;
  return over / (over + under);
}

/** The law of a stat over the share `left` of a game, its events independent increments. */
export function lawOfRest(law: TrueModel, left: number): TrueModel {
  switch (law.kind) {
    case 'poisson':
      return { kind: 'poisson', mean: law.mean * left };
    case 'negbin':
      return { kind: 'negbin', mean: law.mean * left, r: law.r * left };
    default:
      return { kind: 'normal', mean: law.mean * left, sd: law.sd * Math.sqrt(left), integer: law.integer };
  }
}

/**
 * P(X = k) from k = 0 until all but 1e-12 of the mass is listed (at most `cap` values). A
 * normal is drawn rounded and floored at 0, so 0 holds all its mass below ½.
 */
export function wholePmf(law: TrueModel, cap = 20_000): number[] {
  if (law.kind !== 'normal') {
    const walk = new CountWalk(law);
    const pmf = [walk.p];
    while (walk.k + 1 < cap && (walk.atMost < 1 - 1e-12 || walk.k + 1 <= law.mean)) {
      walk.step();
      pmf.push(walk.p);
    }
    return pmf;
  }
  // P(X ≤ k) for k = 0, 1, …: Φ at k + ½, until 1e-12 of the mass is left or k passes 10 sd above the mean.
  const through = [phi((0.5 - law.mean) / law.sd)];
  for (let k = 1; k < cap && (through[k - 1] as number) < 1 - 1e-12 && k - 1 <= law.mean + 10 * law.sd; k++) {
    through.push(phi((k + 0.5 - law.mean) / law.sd));
  }
  return through.map((p, k) => (k === 0 ? p : p - (through[k - 1] as number)));
}

/** The pmf of X + Y for independent whole-number X and Y given by their pmfs. */
export function pmfOfSum(x: readonly number[], y: readonly number[]): number[] {
  const sum = new Array<number>(x.length + y.length - 1).fill(0);
  for (let i = 0; i < x.length; i++) {
    const px = x[i] as number;
    if (px !== 0) for (let j = 0; j < y.length; j++) sum[i + j] = (sum[i + j] as number) + px * (y[j] as number);
  }
  return sum;
}

/** Over, under and push at `line` of a whole-number law given by its pmf (from 0). */
export function sidesAt(pmf: readonly number[], line: number): { pOver: number; pUnder: number; pPush: number } {
  const sides = { pOver: 0, pUnder: 0, pPush: 0 };
  for (let k = 0; k < pmf.length; k++) {
    const side = k > line ? 'pOver' : k < line ? 'pUnder' : 'pPush';
    sides[side] += pmf[k] as number;
  }
  const total = sides.pOver + sides.pUnder + sides.pPush;
  return { pOver: sides.pOver / total, pUnder: sides.pUnder / total, pPush: sides.pPush / total };
}
