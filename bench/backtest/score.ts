/**
 * The backtest's scorecard: proper scores, calibration and the edges a bettor following each
 * source would have taken, with 95 % intervals. Pure functions of settled forecasts.
 */
import type { Book, EntryType } from '@propsfeed/contract';
import { EDGE_THRESHOLDS } from '@propsfeed/contract';
import { CALIBRATION_BINS, type EntryBook, LOG_LOSS_CLAMP } from '@propsfeed/server/model';

/** One settled forecast of the over given no push (pushes are left out before scoring). */
export interface Forecast {
  book: Book;
  date: string;
  /** P(over | no push). */
  q: number;
  over: boolean;
  /** The simulator's true P(over | no push) (sim/oracle.ts), where known: what the pick hits in expectation. */
  truth?: number;
}

export interface Bin {
  from: number;
  n: number;
  predicted: number;
  observed: number;
  /** Within 3 points of the observed rate, or within two standard errors where that is wider. */
  ok: boolean;
}

export interface Scores {
  n: number;
  brier: number;
  logLoss: number;
  /** Expected calibration error: the count-weighted mean |predicted − observed| over the bins. */
  ece: number;
  bins: Bin[];
}

export function score(forecasts: readonly Pick<Forecast, 'q' | 'over'>[]): Scores {
  const clamp = (p: number) => Math.min(1 - LOG_LOSS_CLAMP, Math.max(LOG_LOSS_CLAMP, p));
  const acc = Array.from({ length: CALIBRATION_BINS }, () => ({ n: 0, p: 0, y: 0 }));
  let brier = 0;
  let logLoss = 0;
  for (const f of forecasts) {
    const y = f.over ? 1 : 0;
    brier += (f.q - y) ** 2;
    logLoss -= Math.log(f.over ? clamp(f.q) : clamp(1 - f.q));
    const b = acc[Math.min(CALIBRATION_BINS - 1, Math.floor(f.q * CALIBRATION_BINS))] as (typeof acc)[number];
    b.n++;
    b.p += f.q;
    b.y += y;
  }
  const n = forecasts.length;
  let ece = 0;
  const bins: Bin[] = [];
  acc.forEach((b, i) => {
    if (b.n === 0) return;
    const predicted = b.p / b.n;
    const observed = b.y / b.n;
    ece += (b.n / n) * Math.abs(predicted - observed);
    const se = Math.sqrt((predicted * (1 - predicted)) / b.n);
    bins.push({
      from: i / CALIBRATION_BINS,
      n: b.n,
      predicted,
      observed,
      ok: Math.abs(predicted - observed) <= Math.max(0.03, 2 * se),
    });
  });
  return { n, brier: n ? brier / n : Number.NaN, logLoss: n ? logLoss / n : Number.NaN, ece, bins };
}

export interface EdgeRow {
  entry: string;
  minEdge: number;
  picks: number;
  hitRate: number;
  hitHalfWidth: number;
  roi: number;
  roiHalfWidth: number;
  /** The picks' mean true chance of their side (forecasts with `truth` only): the hit rate free of the draws' luck. */
  expectedHitRate?: number;
}

/**
 * Per entry type in force and minEdge: the side each forecast favours, taken when its chance
 * beats the entry's per-leg breakeven by minEdge; hit rate and ROI at the breakeven odds
 * (a hit returns 1 / breakeven), each ± 1.96 standard errors.
 */
export function edges(forecasts: readonly Forecast[], entries: EntryBook): EdgeRow[] {
  const tallies = new Map<
    string,
    { entry: EntryType; minEdge: number; picks: number; hits: number; expected: number; truths: number }
  >();
  for (const f of forecasts) {
    const chance = Math.max(f.q, 1 - f.q);
    const hit = f.q >= 0.5 === f.over;
    const truth = f.truth === undefined ? undefined : f.q >= 0.5 ? f.truth : 1 - f.truth;
    for (const entry of entries.inEffect(f.date)) {
      if (entry.book !== f.book) continue;
      const edge = chance - entry.breakeven;
      for (const minEdge of EDGE_THRESHOLDS) {
        if (edge < minEdge) continue;
        const key = `${entry.id}|${minEdge}`;
        const t = tallies.get(key) ?? { entry, minEdge, picks: 0, hits: 0, expected: 0, truths: 0 };
        tallies.set(key, t);
        t.picks++;
        if (hit) t.hits++;
        if (truth !== undefined) {
          t.expected += truth;
          t.truths++;
        }
      }
    }
  }
  return [...tallies.values()]
    .sort((a, b) => a.entry.id.localeCompare(b.entry.id) || a.minEdge - b.minEdge)
    .map((t) => {
      const h = t.hits / t.picks;
      const hitHalfWidth = 1.96 * Math.sqrt((h * (1 - h)) / t.picks);
      return {
        entry: t.entry.id,
        minEdge: t.minEdge,
        picks: t.picks,
        hitRate: h,
        hitHalfWidth,
        roi: h / t.entry.breakeven - 1,
        roiHalfWidth: hitHalfWidth / t.entry.breakeven,
        ...(t.truths === t.picks ? { expectedHitRate: t.expected / t.truths } : {}),
      };
    });
}

const pct = (v: number) => (v * 100).toFixed(1);

/** A source's scores on one line of the backtest's report: n, Brier, log loss, ECE and the bins of n ≥ 100 (! outside max(3 points, 2 SE)). */
export function scoreLine(label: string, s: Scores): string {
  const bins = s.bins
    .filter((b) => b.n >= 100)
    .map((b) => `${pct(b.predicted)}→${pct(b.observed)}${b.ok ? '' : '!'} (${b.n})`)
    .join(', ');
  return `  ${label.padEnd(22)} n ${String(s.n).padStart(6)}  Brier ${s.brier.toFixed(4)}  logloss ${s.logLoss.toFixed(4)}  ECE ${pct(s.ece).padStart(4)}  bins n≥100: ${bins}`;
}

/** Brier of `ours` less `market`'s on the same forecasts (paired, same order and outcomes), and its standard error. */
export function brierDifference(
  ours: readonly Pick<Forecast, 'q' | 'over'>[],
  market: readonly Pick<Forecast, 'q' | 'over'>[],
): { diff: number; se: number } {
  const d = ours.map((o, i) => {
    const y = o.over ? 1 : 0;
    return (o.q - y) ** 2 - ((market[i] as Forecast).q - y) ** 2;
  });
  const mean = d.reduce((a, v) => a + v, 0) / d.length;
  const variance = d.reduce((a, v) => a + (v - mean) ** 2, 0) / (d.length - 1);
  return { diff: mean, se: Math.sqrt(variance / d.length) };
}

/**
 * Why a basis's edges are withheld on the forecasts it was scored on (`where` says which), or
 * undefined (shown): a calibration bin of n ≥ 100 outside max(3 points, 2 SE), or, given the
 * market's forecasts of the same props, a Brier worse than the market's by more than one
 * paired standard error.
 */
export function withheldWhy(
  ours: readonly Pick<Forecast, 'q' | 'over'>[],
  market: readonly Pick<Forecast, 'q' | 'over'>[] | undefined,
  where: string,
): string | undefined {
  const off = score(ours).bins.filter((b) => b.n >= 100 && !b.ok);
  if (off.length > 0)
    return `not calibrated on ${where}: ${off.map((b) => `${pct(b.predicted)} % → ${pct(b.observed)} % (n ${b.n})`).join(', ')} outside max(3 points, 2 SE)`;
  if (!market || ours.length < 2) return undefined;
  const { diff, se } = brierDifference(ours, market);
  if (diff > se)
    return `worse than the market on ${where}: Brier ${(score(market).brier + diff).toFixed(4)} against ${score(market).brier.toFixed(4)} (more than 1 SE, ${se.toFixed(4)})`;
  return undefined;
}
