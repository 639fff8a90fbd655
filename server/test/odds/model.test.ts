/** The model's pieces with exact values: the season read, the stack, the fit on earlier days only, live conditioning. */
import { describe, expect, it } from 'vitest';
import { probabilitiesAt } from '../../src/odds/distribution';
import { liveChances, playedShare, playedShareAt } from '../../src/odds/live';
import {
  type Coefficients,
  fitCoefficients,
  modelFor,
  type Sample,
  seasonMean,
  stackedMean,
} from '../../src/odds/model';

describe('the season read', () => {
  it('weighs each game 0.97 of the next newer one', () => {
    // (10 + 0.97·20 + 0.9409·30 + 0.912673·40 + 0.88529281·50) / (1 + 0.97 + 0.9409 + 0.912673 + 0.88529281)
    const expected = (10 + 0.97 * 20 + 0.9409 * 30 + 0.912673 * 40 + 0.88529281 * 50) / 4.70886581;
    expect(seasonMean([10, 20, 30, 40, 50])).toBeCloseTo(expected, 12);
    expect(seasonMean([10, 20, 30, 40])).toBeNull();
  });
});

describe('the stacked mean', () => {
  const coef: Coefficients = { priced: [0.2, 0.5, 0.3], unpriced: [1, 0, 0], dispersion: {}, fittedOn: 't' };
  it('shrinks the logs towards the market by the weights', () => {
    // 20 · (0.2 + 0.5 · 24/20 + 0.3 · 16/20) = 4 + 12 + 4.8
    expect(stackedMean({ season: 24, form: 16, market: 20, priced: true, games: 12 }, coef)).toBeCloseTo(20.8, 12);
    // Without logs every read is the market's: 20 · (0.2 + 0.5 + 0.3)
    expect(stackedMean({ season: null, form: null, market: 20, priced: true, games: 2 }, coef)).toBeCloseTo(20, 12);
  });
});

describe('the fit', () => {
  const sample = (date: string, market: number, season: number, final: number): Sample => ({
    date,
    sport: 'nba',
    stat: 'points',
    reads: { season, form: season, market, priced: true, games: 20 },
    final,
  });
  const earlier = [
    sample('2026-10-01', 20, 24, 22),
    sample('2026-10-01', 10, 8, 9),
    sample('2026-10-02', 30, 30, 33),
    sample('2026-10-02', 5, 6, 5),
  ];

  it('reads only the days before the one predicted', () => {
    const later = [sample('2026-10-03', 20, 20, 60), sample('2026-10-04', 10, 10, 0)];
    const a = fitCoefficients(earlier, '2026-10-03', 'x');
    const b = fitCoefficients([...earlier, ...later], '2026-10-03', 'x');
    expect(b).toEqual(a);
    expect(a.fittedOn).toBe('x, 2026-10-01..2026-10-02, 4 finals');
    // The day itself moves the fit once it is earlier than the day predicted.
    expect(fitCoefficients([...earlier, ...later], '2026-10-04', 'x').priced).not.toEqual(a.priced);
  });

  it('recovers finals that are the market read exactly', () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      sample('2026-10-01', 10 + (i % 7), 10 + ((i * 3) % 5), 10 + (i % 7)),
    );
    const [c, a, b] = fitCoefficients(many, '2026-10-02', 'x').priced;
    expect(c + a + b).toBeCloseTo(1, 2);
    expect(Math.abs(a + b)).toBeLessThan(0.01);
  });
});

describe('live chances', () => {
  const prior = modelFor(20, 0.04);

  it('reads the share played off the books’ clock', () => {
    expect(playedShare('nba', 'Q3 6:00')).toBeCloseTo(0.625, 12); // 2.5 of 4 quarters
    expect(playedShare('soccer', '2H 67:30')).toBeCloseTo(0.75, 12);
    expect(playedShare('mlb', undefined)).toBeUndefined();
    expect(playedShareAt('mlb', undefined, 0, 90 * 60_000)).toBeCloseTo(0.5, 12);
  });

  it('a prop whose value already beats the line is decided', () => {
    expect(liveChances(prior, 25, 0.6, 24.5)).toEqual({ pOver: 1, pUnder: 0, pPush: 0, decided: true });
  });

  it('before the start it is the prior; a player ahead of pace is more likely over', () => {
    const pre = liveChances(prior, 0, 0, 19.5);
    expect(pre.pOver).toBeCloseTo(probabilitiesAt(prior, 19.5).pOver, 9);
    const ahead = liveChances(prior, 14, 0.5, 19.5);
    const behind = liveChances(prior, 6, 0.5, 19.5);
    expect(ahead.pOver).toBeGreaterThan(0.85);
    expect(behind.pOver).toBeLessThan(0.21);
  });

  it('conditions exactly: the value so far plus the prior over what is left', () => {
    // Half played, 1 shown, Poisson(2): the final is 1 + Poisson(1); over 2.5 is Poisson(1) ≥ 2
    const poisson = { kind: 'poisson', mean: 2 } as const;
    expect(liveChances(poisson, 1, 0.5, 2.5).pOver).toBeCloseTo(1 - 2 * Math.exp(-1), 12);
    // A negative binomial's r scales with the share left: 3 shown, a quarter left of NB(6, r 4)
    // leaves NB(1.5, r 1), P(0) = 0.4, so the push at 3 is 0.4
    expect(liveChances({ kind: 'negbin', mean: 6, r: 4 }, 3, 0.75, 3).pPush).toBeCloseTo(0.4, 12);
  });
});
