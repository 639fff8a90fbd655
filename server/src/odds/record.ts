/**
 * The track record: how the chances published at lock did against the results. Each settled
 * (prop, book) with a published chance is one forecast of the over given no push; pushes are
 * counted apart (a pushed leg is dropped from an entry, neither won nor lost).
 */
import {
  type Book,
  type CalibrationBin,
  EDGE_THRESHOLDS,
  type EdgeRecord,
  type EntryType,
  type Interval,
  type MarketRecord,
  type PropResult,
  type TrackRecordResponse,
} from '@propsfeed/contract';
import { type EntryBook, round4 } from './entries';

/** One settled forecast: the chances published at lock (null: none, not scored) and what happened. */
export interface ScoredForecast {
  book: Book;
  /** The UTC day of the game: the payout tables in force then judge its edge. */
  date: string;
  pOver: number | null;
  pUnder: number | null;
  result: PropResult;
  /** The market's over chance (given no push) at this line at lock, where a book priced it. */
  marketPOver?: number | undefined;
}

export const CALIBRATION_BINS = 10;
/** Log loss reads chances no closer to 0 or 1 than this: one confident miss would otherwise be infinite. */
export const LOG_LOSS_CLAMP = 1e-4;

export const TRACK_RECORD_NOTE =
  'Chances the service published when each game started, scored against the recorded results. They are estimates, not promises: a well-calibrated 60 % still loses 4 times in 10, and past results do not guarantee future ones. Picks are single legs at the breakeven odds; an entry pays only on its combination of legs.';

interface Tally {
  picks: number;
  hits: number;
  pushes: number;
  /** Sum over won picks of 1 / breakeven: the return at the breakeven odds. */
  returned: number;
}

type Scores = Pick<
  TrackRecordResponse,
  'count' | 'pushes' | 'brier' | 'logLoss' | 'calibration' | 'ece' | 'market' | 'edges'
>;

/** z of a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/** The 95 % Wilson score interval of `hits` in `n` trials (null without trials). */
export function wilsonInterval(hits: number, n: number): Interval | null {
  if (n <= 0) return null;
  const p = hits / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: round4(Math.max(0, centre - half)), high: round4(Math.min(1, centre + half)) };
}

/**
 * The 95 % interval of a ROI of picks paid `perWin` each when they win (ROI = hitRate × perWin
 * − 1): the Wilson interval of the hit rate, carried through that line.
 */
export function roiInterval(hits: number, n: number, perWin: number): Interval | null {
  const rate = wilsonInterval(hits, n);
  if (!rate) return null;
  return { low: round4(rate.low * perWin - 1), high: round4(rate.high * perWin - 1) };
}

/** One forecast of the over given no push, and whether it went over. */
export interface Outcome {
  q: number;
  over: boolean;
}

/** How a set of over chances did: Brier, log loss, calibration bins and ECE (null scores when empty). */
export interface ProbabilityScores {
  count: number;
  brier: number | null;
  logLoss: number | null;
  calibration: CalibrationBin[];
  /** Expected calibration error: the bins' |predicted − observed|, weighted by their counts. */
  ece: number | null;
}

/** Scores over chances given no push against what happened (pushes are left out by the caller). */
export function scoreProbabilities(outcomes: Iterable<Outcome>): ProbabilityScores {
  let count = 0;
  let squared = 0;
  let logLoss = 0;
  const bins = Array.from({ length: CALIBRATION_BINS }, () => ({ count: 0, predicted: 0, over: 0 }));
  const clamp = (p: number) => Math.min(1 - LOG_LOSS_CLAMP, Math.max(LOG_LOSS_CLAMP, p));
  for (const { q, over } of outcomes) {
    const y = over ? 1 : 0;
    count++;
    squared += (q - y) ** 2;
    logLoss -= Math.log(over ? clamp(q) : clamp(1 - q));
    const bin = bins[Math.min(CALIBRATION_BINS - 1, Math.floor(q * CALIBRATION_BINS))] as (typeof bins)[number];
    bin.count++;
    bin.predicted += q;
    bin.over += y;
  }
  let gap = 0;
  for (const b of bins) if (b.count > 0) gap += Math.abs(b.predicted - b.over);
  const calibration: CalibrationBin[] = bins.map((b, i) => ({
    from: i / CALIBRATION_BINS,
    to: (i + 1) / CALIBRATION_BINS,
    count: b.count,
    predicted: b.count > 0 ? round4(b.predicted / b.count) : null,
    observed: b.count > 0 ? round4(b.over / b.count) : null,
  }));
  return {
    count,
    brier: count > 0 ? round4(squared / count) : null,
    logLoss: count > 0 ? round4(logLoss / count) : null,
    calibration,
    ece: count > 0 ? round4(gap / count) : null,
  };
}

/** Scores, calibration and the edge picks per entry type in force on `today`. */
export function scoreForecasts(forecasts: readonly ScoredForecast[], entries: EntryBook, today: string): Scores {
  let pushes = 0;
  const outcomes: Outcome[] = [];
  // The market and the service on the props the market priced.
  const market: Outcome[] = [];
  const oursBeside: Outcome[] = [];
  const tallies = new Map<string, Tally>();

  for (const f of forecasts) {
    if (f.pOver === null || f.pUnder === null) continue;
    const decided = f.pOver + f.pUnder;
    if (!(decided > 0)) continue;
    const q = f.pOver / decided;
    const side = f.pOver >= f.pUnder ? 'over' : 'under';
    const chance = side === 'over' ? q : 1 - q;
    if (f.result === 'push') pushes++;
    else {
      const over = f.result === 'over';
      outcomes.push({ q, over });
      if (f.marketPOver !== undefined) {
        market.push({ q: f.marketPOver, over });
        oursBeside.push({ q, over });
      }
    }
    for (const entry of entries.inEffect(f.date)) {
      if (entry.book !== f.book) continue;
      const edge = round4(chance - entry.breakeven);
      for (const minEdge of EDGE_THRESHOLDS) {
        if (edge < minEdge) continue;
        const key = `${entry.id}|${minEdge}`;
        const t = tallies.get(key) ?? { picks: 0, hits: 0, pushes: 0, returned: 0 };
        tallies.set(key, t);
        if (f.result === 'push') t.pushes++;
        else {
          t.picks++;
          if (f.result === side) {
            t.hits++;
            t.returned += 1 / entry.breakeven;
          }
        }
      }
    }
  }

  const edges: EdgeRecord[] = entries.inEffect(today).flatMap((entry: EntryType) =>
    EDGE_THRESHOLDS.map((minEdge) => {
      const t = tallies.get(`${entry.id}|${minEdge}`) ?? { picks: 0, hits: 0, pushes: 0, returned: 0 };
      return {
        entry: entry.id,
        name: entry.name,
        book: entry.book,
        breakeven: round4(entry.breakeven),
        minEdge,
        picks: t.picks,
        hits: t.hits,
        pushes: t.pushes,
        hitRate: t.picks > 0 ? round4(t.hits / t.picks) : null,
        roi: t.picks > 0 ? round4(t.returned / t.picks - 1) : null,
        hitRateInterval: wilsonInterval(t.hits, t.picks),
        roiInterval: roiInterval(t.hits, t.picks, t.hits > 0 ? t.returned / t.hits : 1 / entry.breakeven),
      };
    }),
  );
  const { count, brier, logLoss, calibration, ece } = scoreProbabilities(outcomes);
  return { count, pushes, brier, logLoss, calibration, ece, market: marketRecord(market, oursBeside), edges };
}

function marketRecord(market: readonly Outcome[], ours: readonly Outcome[]): MarketRecord {
  const m = scoreProbabilities(market);
  const o = scoreProbabilities(ours);
  return {
    count: m.count,
    brier: m.brier,
    logLoss: m.logLoss,
    ece: m.ece,
    calibration: m.calibration,
    ours: { brier: o.brier, logLoss: o.logLoss, ece: o.ece },
  };
}
