/**
 * What a modelling desk knows of a simulated player from everything public: his box scores
 * (every base stat of his last games) and his role. The world draws each player's mean of a
 * base stat as role mean × level × own, level ~ U(LEVEL) shared by all his stats and own ~
 * U(OWN) per stat (world.ts makeRosters), and each game's value from his distribution
 * (variance mean + dispersion × mean²: a negative binomial below COUNT_LIMIT, a rounded
 * normal above). The desk's read is the exact posterior of that model on a grid: the
 * likelihood of each base stat's games at each (level, own), multiplied over his stats for
 * the level, then the posterior mean and variance of a prop's stat (a weighted sum of base
 * stats). So no function of the public games can improve on it: its error is independent of
 * them, and only information the desk lacks (a book's own read, news) can beat it.
 */
import { COUNT_LIMIT } from './distributions';

/** The range of a player's level (every stat's factor) and of each stat's own factor: both uniform. */
export const LEVEL = [0.75, 1.25] as const;
export const OWN = [0.9, 1.1] as const;
/** Grid points: a posterior narrower than their spacing is still summed well (midpoints of a smooth density). */
const LEVEL_POINTS = 32;
const OWN_POINTS = 7;

/**
 * A base stat's public games: how many of each value. Whole numbers, so adding a game and
 * dropping one (a season's window sliding on) gives the same tally as counting afresh.
 */
export class BaseGames {
  n = 0;
  sum = 0;
  squares = 0;
  private readonly counts = new Map<number, number>();

  constructor(
    /** What players of the role average per game. */
    readonly roleMean: number,
    /** variance = mean + dispersion × mean². */
    readonly dispersion: number,
  ) {}

  copy(): BaseGames {
    const c = new BaseGames(this.roleMean, this.dispersion);
    for (const [x, k] of this.counts) c.add(x, k);
    return c;
  }

  add(x: number, times = 1): void {
    this.n += times;
    this.sum += times * x;
    this.squares += times * x * x;
    const c = (this.counts.get(x) ?? 0) + times;
    if (c === 0) this.counts.delete(x);
    else this.counts.set(x, c);
  }

  /** Σ ln Γ(x + r) − ln Γ(r) − ln x! over the games, r = 1 / dispersion (the negative binomial's constant; Poisson: −Σ ln x!). */
  countConstant(): number {
    const r = this.dispersion > 0 ? 1 / this.dispersion : 0;
    let total = 0;
    for (const x of [...this.counts.keys()].sort((a, b) => a - b))
      total += (this.counts.get(x) as number) * countTerm(r, x);
    return total;
  }
}

export interface Belief {
  mean: number;
  variance: number;
}

const grid = (range: readonly [number, number], points: number) =>
  Array.from({ length: points }, (_, i) => range[0] + ((i + 0.5) / points) * (range[1] - range[0]));
const LEVELS = grid(LEVEL, LEVEL_POINTS);
const OWNS = grid(OWN, OWN_POINTS);
const LOG_LEVELS = LEVELS.map(Math.log);
const LOG_OWNS = OWNS.map(Math.log);

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7: about 15 digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0] as number;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += (LANCZOS[i] as number) / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** ln Γ(x + r) − ln Γ(r) − ln x! per whole x ≥ 0, per r (0: Poisson, −ln x!), computed once. */
const countTerms = new Map<number, number[]>();
function countTerm(r: number, x: number): number {
  let terms = countTerms.get(r);
  if (!terms) {
    terms = [];
    countTerms.set(r, terms);
  }
  let v = terms[x];
  if (v === undefined) {
    v = (r > 0 ? logGamma(x + r) - logGamma(r) : 0) - logGamma(x + 1);
    terms[x] = v;
  }
  return v;
}

/** ln P(games | the player's mean is m), as the world draws them (`constant`: the games' countConstant, `logMean`: ln m). */
function logLikelihood(g: BaseGames, constant: number, mean: number, logMean: number): number {
  if (mean < COUNT_LIMIT) {
    if (!(g.dispersion > 0)) return constant + g.sum * logMean - g.n * mean;
    const r = 1 / g.dispersion;
    const logRm = Math.log(r + mean);
    return constant + g.sum * (logMean - logRm) + g.n * r * (Math.log(r) - logRm);
  }
  const v = mean + g.dispersion * mean * mean;
  return (-0.5 * (g.squares - 2 * mean * g.sum + g.n * mean * mean)) / v - 0.5 * g.n * Math.log(2 * Math.PI * v);
}

/** Per base stat, at each level: the log marginal likelihood over its own factor, and E[own], E[own²] given the level. */
interface BaseAtLevels {
  log: Float64Array;
  own: Float64Array;
  own2: Float64Array;
}

function atLevels(g: BaseGames): BaseAtLevels {
  // The constant matters only where the grid spans both the counts and the normal.
  const low = g.roleMean * (LEVELS[0] as number) * (OWNS[0] as number);
  const high = g.roleMean * (LEVELS[LEVEL_POINTS - 1] as number) * (OWNS[OWN_POINTS - 1] as number);
  const constant = low < COUNT_LIMIT && high >= COUNT_LIMIT ? g.countConstant() : 0;
  const logRole = Math.log(g.roleMean);
  const log = new Float64Array(LEVEL_POINTS);
  const own = new Float64Array(LEVEL_POINTS);
  const own2 = new Float64Array(LEVEL_POINTS);
  const ll = new Float64Array(OWN_POINTS);
  for (let i = 0; i < LEVEL_POINTS; i++) {
    let top = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < OWN_POINTS; j++) {
      const mean = g.roleMean * (LEVELS[i] as number) * (OWNS[j] as number);
      ll[j] =
        g.n === 0 ? 0 : logLikelihood(g, constant, mean, logRole + (LOG_LEVELS[i] as number) + (LOG_OWNS[j] as number));
      top = Math.max(top, ll[j] as number);
    }
    let z = 0;
    let e1 = 0;
    let e2 = 0;
    for (let j = 0; j < OWN_POINTS; j++) {
      const w = Math.exp((ll[j] as number) - top);
      const o = OWNS[j] as number;
      z += w;
      e1 += w * o;
      e2 += w * o * o;
    }
    log[i] = top + Math.log(z / OWN_POINTS);
    own[i] = e1 / z;
    own2[i] = e2 / z;
  }
  return { log, own, own2 };
}

/** The desk's posterior of one player, from all his base stats' games. */
export class DeskPosterior {
  private readonly bases = new Map<string, BaseAtLevels>();
  /** P(level = LEVELS[i] | every base stat's games). */
  private readonly level = new Float64Array(LEVEL_POINTS);

  constructor(games: ReadonlyMap<string, BaseGames>) {
    const log = new Float64Array(LEVEL_POINTS);
    for (const [base, g] of games) {
      const at = atLevels(g);
      this.bases.set(base, at);
      for (let i = 0; i < LEVEL_POINTS; i++) log[i] = (log[i] as number) + (at.log[i] as number);
    }
    const top = Math.max(...log);
    let z = 0;
    for (let i = 0; i < LEVEL_POINTS; i++) {
      this.level[i] = Math.exp((log[i] as number) - top);
      z += this.level[i] as number;
    }
    for (let i = 0; i < LEVEL_POINTS; i++) this.level[i] = (this.level[i] as number) / z;
  }

  private readonly reads = new Map<string, Belief>();

  /** `belief` of a stat, computed once per stat. */
  read(stat: string, parts: () => ReadonlyMap<string, { weight: number; roleMean: number }>): Belief {
    let b = this.reads.get(stat);
    if (!b) {
      b = this.belief(parts());
      this.reads.set(stat, b);
    }
    return b;
  }

  /** The posterior mean and variance of a stat's mean: Σ weight × role mean × level × own over its base stats. */
  belief(parts: ReadonlyMap<string, { weight: number; roleMean: number }>): Belief {
    let m1 = 0;
    let m2 = 0;
    for (let i = 0; i < LEVEL_POINTS; i++) {
      // Given the level, the stats' own factors are independent: the sum's mean and variance add up.
      let mean = 0;
      let variance = 0;
      for (const [base, { weight, roleMean }] of parts) {
        const at = this.bases.get(base);
        const own = at ? (at.own[i] as number) : (OWN[0] + OWN[1]) / 2;
        const own2 = at ? (at.own2[i] as number) : own * own + (OWN[1] - OWN[0]) ** 2 / 12;
        const scale = weight * roleMean * (LEVELS[i] as number);
        mean += scale * own;
        variance += scale * scale * Math.max(0, own2 - own * own);
      }
      const p = this.level[i] as number;
      m1 += p * mean;
      m2 += p * (variance + mean * mean);
    }
    return { mean: m1, variance: Math.max(0, m2 - m1 * m1) };
  }
}
