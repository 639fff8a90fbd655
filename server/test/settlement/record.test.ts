/** The track record's numbers on a hand-built history of settled forecasts, worked out by hand. */
import type { EntryTable } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import { EntryBook } from '../../src/odds/entries';
import { roiInterval, type ScoredForecast, scoreForecasts, wilsonInterval } from '../../src/odds/record';

const table = (id: string, book: 'prizepicks' | 'underdog', picks: number, pays: number, from: string): EntryTable => ({
  id,
  book,
  kind: book === 'prizepicks' ? 'power' : 'standard',
  picks,
  payouts: [{ hits: picks, multiplier: pays }],
  effectiveFrom: from,
});

// Both 2-pick tables pay 3×: breakeven 1/√3 = 0.57735. The 3-pick one (6×, 0.55032) starts on the 22nd.
const entries = new EntryBook([
  table('prizepicks_power_2', 'prizepicks', 2, 3, '2026-01-01'),
  table('underdog_standard_2', 'underdog', 2, 3, '2026-01-01'),
  table('underdog_standard_3', 'underdog', 3, 6, '2026-11-22'),
]);

const forecasts: ScoredForecast[] = [
  { book: 'prizepicks', date: '2026-11-21', pOver: 0.6, pUnder: 0.4, result: 'over' },
  { book: 'prizepicks', date: '2026-11-21', pOver: 0.7, pUnder: 0.3, result: 'under' },
  { book: 'underdog', date: '2026-11-21', pOver: 0.2, pUnder: 0.8, result: 'under' },
  // A push: outside the scores, counted apart (its 0.55 over is below every breakeven).
  { book: 'prizepicks', date: '2026-11-21', pOver: 0.55, pUnder: 0.45, result: 'push' },
  // pOver + pUnder + pPush = 1: scored as 0.45 / 0.9 = 0.5 over given no push.
  { book: 'underdog', date: '2026-11-22', pOver: 0.45, pUnder: 0.45, result: 'over' },
];

describe('track record', () => {
  const scores = scoreForecasts(forecasts, entries, '2026-11-22');

  it('counts decided forecasts and pushes apart', () => {
    expect(scores.count).toBe(4);
    expect(scores.pushes).toBe(1);
  });

  it('Brier score and log loss of the over chance given no push', () => {
    // (0.6−1)² + (0.7−0)² + (0.2−0)² + (0.5−1)² = 0.16 + 0.49 + 0.04 + 0.25 = 0.94; / 4
    expect(scores.brier).toBe(0.235);
    // −(ln 0.6 + ln 0.3 + ln 0.8 + ln 0.5) / 4 = (0.510826 + 1.203973 + 0.223144 + 0.693147) / 4 = 0.657772
    expect(scores.logLoss).toBe(0.6578);
  });

  it('calibration: ten bins of the predicted over chance against the observed over rate', () => {
    expect(scores.calibration).toHaveLength(10);
    expect(scores.calibration.filter((b) => b.count > 0)).toEqual([
      { from: 0.2, to: 0.3, count: 1, predicted: 0.2, observed: 0 },
      { from: 0.5, to: 0.6, count: 1, predicted: 0.5, observed: 1 },
      { from: 0.6, to: 0.7, count: 1, predicted: 0.6, observed: 1 },
      { from: 0.7, to: 0.8, count: 1, predicted: 0.7, observed: 0 },
    ]);
    expect(scores.calibration[0]).toEqual({ from: 0, to: 0.1, count: 0, predicted: null, observed: null });
  });

  it('edge picks per entry type and threshold: hits, pushes and ROI at the breakeven odds', () => {
    const row = (entry: string, minEdge: number) => {
      const r = scores.edges.find((e) => e.entry === entry && e.minEdge === minEdge);
      if (!r) throw new Error(`no ${entry} ${minEdge}`);
      return { picks: r.picks, hits: r.hits, pushes: r.pushes, hitRate: r.hitRate, roi: r.roi };
    };
    // Over 0.6 (edge 0.0226, hit) and over 0.7 (edge 0.1226, missed): 1 of 2 at 1.7321 per unit → −0.134.
    expect(row('prizepicks_power_2', 0)).toEqual({ picks: 2, hits: 1, pushes: 0, hitRate: 0.5, roi: -0.134 });
    expect(row('prizepicks_power_2', 0.02)).toEqual({ picks: 2, hits: 1, pushes: 0, hitRate: 0.5, roi: -0.134 });
    expect(row('prizepicks_power_2', 0.05)).toEqual({ picks: 1, hits: 0, pushes: 0, hitRate: 0, roi: -1 });
    expect(row('prizepicks_power_2', 0.1)).toEqual({ picks: 1, hits: 0, pushes: 0, hitRate: 0, roi: -1 });
    // Under 0.8 (edge 0.2226) won; the 0.5 of the 22nd is below the breakeven.
    expect(row('underdog_standard_2', 0.1)).toEqual({ picks: 1, hits: 1, pushes: 0, hitRate: 1, roi: 0.7321 });
    // The 3-pick table took effect on the 22nd: the 21st's under is not judged by it, the 22nd's 0.5 is below 0.5503.
    expect(row('underdog_standard_3', 0)).toEqual({ picks: 0, hits: 0, pushes: 0, hitRate: null, roi: null });
  });

  it('a push above the threshold is counted as a push, not a pick', () => {
    const pushed = scoreForecasts(
      [{ book: 'prizepicks', date: '2026-11-21', pOver: 0.65, pUnder: 0.35, result: 'push' }],
      entries,
      '2026-11-22',
    );
    expect(pushed.edges.find((e) => e.entry === 'prizepicks_power_2' && e.minEdge === 0.05)).toMatchObject({
      picks: 0,
      pushes: 1,
      hitRate: null,
    });
    expect([pushed.count, pushed.brier, pushed.logLoss]).toEqual([0, null, null]);
  });
});

describe('ECE, the market beside ours, and the intervals', () => {
  it("ECE: the bins' |predicted − observed| weighted by their counts", () => {
    // Bins 0.2 (0.2 → 0), 0.5 (0.5 → 1), 0.6 (0.6 → 1), 0.7 (0.7 → 0): (0.2 + 0.5 + 0.4 + 0.7) / 4 = 0.45.
    expect(scoreForecasts(forecasts, entries, '2026-11-22').ece).toBe(0.45);
  });

  it('scores the market and ours on the props the market priced, pushes left out', () => {
    const withMarket: ScoredForecast[] = [
      { ...forecasts[0], marketPOver: 0.5 } as ScoredForecast,
      { ...forecasts[1], marketPOver: 0.4 } as ScoredForecast,
      { ...forecasts[3], marketPOver: 0.9 } as ScoredForecast,
      forecasts[2] as ScoredForecast,
    ];
    const { market } = scoreForecasts(withMarket, entries, '2026-11-22');
    // Market 0.5 (over) and 0.4 (under): ((0.5)² + (0.4)²) / 2 = 0.205; ours 0.6 and 0.7: (0.16 + 0.49) / 2 = 0.325.
    expect(market).toMatchObject({ count: 2, brier: 0.205, ours: { brier: 0.325 } });
    // −(ln 0.5 + ln 0.6) / 2 = 0.60199; bins 0.4 (0.4 → 0) and 0.5 (0.5 → 1): (0.4 + 0.5) / 2.
    expect([market.logLoss, market.ece]).toEqual([0.602, 0.45]);
  });

  it('Wilson 95 % intervals, and ROI through the return per win', () => {
    // The textbook 5 of 10: 0.2366 to 0.7634.
    expect(wilsonInterval(5, 10)).toEqual({ low: 0.2366, high: 0.7634 });
    expect(wilsonInterval(0, 1)).toEqual({ low: 0, high: 0.7935 });
    expect(wilsonInterval(0, 0)).toBeNull();
    // 1 of 2 at 1.7321 per win: 0.0945 × 1.7321 − 1 and 0.9055 × 1.7321 − 1.
    expect(roiInterval(1, 2, Math.sqrt(3))).toEqual({ low: -0.8363, high: 0.5684 });
  });
});
