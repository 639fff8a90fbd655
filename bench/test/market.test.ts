/**
 * The simulated market is calibrated: on seeded days, the books' de-vigged prices, at lock and
 * in-game, land near the rate at which their lines went over, bin by bin. Bounds are generous
 * and follow n (three standard errors of the bin plus two points), so a bin fails only when
 * its prices are off their own read, as they were when the 20–30 % bin went over 54 % of the time.
 */

import type { CalibrationBin } from '@propsfeed/contract';
import { scoreProbabilities } from '@propsfeed/server/model';
import { SimWorld } from '@propsfeed/sim';
import { describe, expect, it } from 'vitest';
import { marketDays } from '../marketDays';

const DAY_MS = 24 * 60 * 60_000;
const TO = Date.parse('2026-11-22T00:00:00Z');

/** How far a bin's observed rate may be from its mean prediction. */
const bound = (b: CalibrationBin) =>
  3 * Math.sqrt(((b.predicted ?? 0.5) * (1 - (b.predicted ?? 0.5))) / b.count) + 0.02;

function offBins(bins: readonly CalibrationBin[], minCount: number): string[] {
  return bins
    .filter((b) => b.count >= minCount && b.predicted !== null && b.observed !== null)
    .filter((b) => Math.abs((b.observed as number) - (b.predicted as number)) > bound(b))
    .map((b) => `${b.from}–${b.to}: predicted ${b.predicted}, observed ${b.observed} (n ${b.count})`);
}

describe('the simulated market', () => {
  // Two days of every sport: some 7,000 locks and 20,000 in-game prices.
  const { lock, live } = marketDays(new SimWorld(20261122), TO - 2 * DAY_MS, TO);
  const atLock = scoreProbabilities(lock);
  const inGame = scoreProbabilities(live);
  const bin = (bins: readonly CalibrationBin[], from: number) => bins.find((b) => b.from === from) as CalibrationBin;

  it('prices each line by its own read: every bin of 30 or more near its prediction, at lock and in-game', () => {
    expect(atLock.count).toBeGreaterThan(5_000);
    expect(inGame.count).toBeGreaterThan(15_000);
    expect(offBins(atLock.calibration, 30)).toEqual([]);
    expect(offBins(inGame.calibration, 30)).toEqual([]);
    // At lock the books are near the truth: on these two days the oracle's own ECE is 0.019 (the
    // props of one player and game go over together), the books' 0.018.
    expect(atLock.ece).toBeLessThan(0.025);
    expect(inGame.ece).toBeLessThan(0.015);
  });

  it('the 20–30 % and 70–80 % bins: near their predictions wherever the books price there', () => {
    // In-game lines late in a game are often long shots: the 20–30 % bin is full there.
    const low = bin(inGame.calibration, 0.2);
    expect(low.count).toBeGreaterThan(500);
    expect(Math.abs((low.observed as number) - (low.predicted as number))).toBeLessThan(bound(low));
    // The books set lines near an even chance, and their read is shrunk to the role's average: few
    // prices reach 70 %, and those few (if any) are held to the same bound.
    for (const scores of [atLock, inGame]) {
      for (const b of [bin(scores.calibration, 0.2), bin(scores.calibration, 0.7)]) {
        if (b.count === 0) continue;
        expect(Math.abs((b.observed as number) - (b.predicted as number)), `${b.from} n ${b.count}`).toBeLessThan(
          bound(b),
        );
      }
    }
  });

  it('beats a coin flip, more so in-game where the value so far is known', () => {
    expect(atLock.brier).toBeLessThan(0.25);
    expect(inGame.brier).toBeLessThan(atLock.brier as number);
  });
});
