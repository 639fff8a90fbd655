/** The model's pieces with exact values: the season read, the stack, the fit on earlier days only, live conditioning. */
import { describe, expect, it } from 'vitest';
import { probabilitiesAt, remainingModel } from '../../src/odds/distribution';
import { sharpened } from '../../src/odds/fair';
import { fitCoefficients, fitLiveScale, type Sample } from '../../src/odds/fit';
import { liveChances, playedShare, playedShareAt, remainingGiven } from '../../src/odds/live';
import {
  type Blend,
  bandOf,
  blendWeights,
  type Coefficients,
  MARKET_ONLY,
  modelFor,
  seasonMean,
  stackedMean,
} from '../../src/odds/model';

describe('the season read', () => {
  it('weighs each game 0.985 of the next newer one', () => {
    // (10 + 0.985·20 + 0.985²·30 + 0.985³·40 + 0.985⁴·50) / (1 + 0.985 + 0.985² + 0.985³ + 0.985⁴)
    const w = [1, 0.985, 0.970225, 0.955671625, 0.941336550625] as const;
    const expected = (10 * w[0] + 20 * w[1] + 30 * w[2] + 40 * w[3] + 50 * w[4]) / 4.852233175625;
    expect(seasonMean([10, 20, 30, 40, 50])).toBeCloseTo(expected, 12);
    expect(seasonMean([10, 20, 30, 40])).toBeNull();
  });
});

describe('the blended mean', () => {
  // Full weights: season 0.5 (half strength at 10 games), form 0.3 (half strength at 30 games).
  const blend: Blend = { season: 0.5, form: 0.3, kSeason: 10, kForm: 30 };
  const coef: Coefficients = {
    kind: 'simulated',
    priced: [MARKET_ONLY, { season: 0.4, form: 0, kSeason: 10, kForm: 1 }, blend, blend],
    unpriced: [MARKET_ONLY, MARKET_ONLY, MARKET_ONLY, MARKET_ONLY],
    dispersion: {},
    inherent: {},
    liveScale: 1,
    fittedOn: 't',
    withheld: {},
  };
  it('weighs the reads by weights ≥ 0 that sum to 1, the logs’ shrunk by the games', () => {
    // 30 games: season 0.5 · 30/40 = 0.375, form 0.3 · 30/60 = 0.15, market 0.475:
    // 0.475 · 20 + 0.375 · 24 + 0.15 · 16 = 9.5 + 9 + 2.4
    const reads = { season: 24, form: 16, market: 20, priced: true, games: 30 };
    expect(blendWeights(reads, coef)).toEqual({ market: 0.475, season: 0.375, form: 0.15 });
    expect(stackedMean(reads, coef)).toBeCloseTo(20.9, 12);
    // Without logs the market alone.
    expect(stackedMean({ season: null, form: null, market: 20, priced: true, games: 2 }, coef)).toBe(20);
  });

  it('a thin season weighs less than a full one', () => {
    const at = (games: number) => blendWeights({ season: 24, form: 16, market: 20, priced: true, games }, coef);
    // 12 games: season 0.5 · 12/22; 60 games: 0.5 · 60/70.
    expect(at(12).season).toBeCloseTo(0.5 * (12 / 22), 12);
    expect(at(60).season).toBeCloseTo(0.5 * (60 / 70), 12);
    expect(at(12).season).toBeLessThan(at(60).season);
  });

  it('lies within its inputs whatever they are', () => {
    for (const [season, form, market] of [
      [6.33, 9.42, 7.42],
      [30, 2, 11],
      [0, 0, 5],
    ] as const) {
      const mean = stackedMean({ season, form, market, priced: true, games: 25 }, coef);
      expect(mean).toBeGreaterThanOrEqual(Math.min(season, form, market));
      expect(mean).toBeLessThanOrEqual(Math.max(season, form, market));
    }
  });

  it('weighs by the band of the market mean: a rare stat’s logs earn less', () => {
    expect([0.4, 1.5, 3.9, 4, 11.9, 12, 300].map(bandOf)).toEqual([0, 1, 1, 2, 2, 3, 3]);
    // Band 0 (mean 0.5) trusts the market alone; band 1 (mean 2, 40 games): season 0.4 · 40/50 = 0.32,
    // 0.68 · 2 + 0.32 · 3 = 2.32
    expect(stackedMean({ season: 1, form: 1, market: 0.5, priced: true, games: 40 }, coef)).toBeCloseTo(0.5, 12);
    expect(stackedMean({ season: 3, form: 1, market: 2, priced: true, games: 40 }, coef)).toBeCloseTo(2.32, 12);
  });
});

describe('the fit', () => {
  const sample = (date: string, market: number, season: number, final: number, form = season): Sample => ({
    date,
    sport: 'nba',
    stat: 'points',
    reads: { season, form, market, priced: true, games: 20 },
    final,
  });
  const earlier = Array.from({ length: 40 }, (_, i) => [
    sample('2026-10-01', 20, 24 - (i % 3), 22 + (i % 5)),
    sample('2026-10-02', 30, 30 + (i % 4), 33 - (i % 2)),
  ]).flat();

  it('reads only the days before the one predicted', () => {
    const later = [sample('2026-10-03', 20, 26, 60), sample('2026-10-04', 10, 10, 0)];
    const a = fitCoefficients(earlier, '2026-10-03', 'x', 'simulated');
    const b = fitCoefficients([...earlier, ...later], '2026-10-03', 'x', 'simulated');
    expect(b).toEqual(a);
    expect(a.fittedOn).toBe('x, 2026-10-01..2026-10-02, 80 finals');
    // The day itself moves the fit once it is earlier than the day predicted.
    // Forty finals at the market on the 3rd, against logs reading 6 higher: the logs' weights fall.
    const many = Array.from({ length: 40 }, () => sample('2026-10-03', 20, 26, 20));
    const moved = fitCoefficients([...earlier, ...many], '2026-10-04', 'x', 'simulated');
    expect(moved.priced[3]).not.toEqual(a.priced[3]);
  });

  it('finals that are the market read exactly leave the logs no weight', () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      sample('2026-10-01', 10 + (i % 7), 10 + ((i * 3) % 5), 10 + (i % 7)),
    );
    const fit = fitCoefficients(many, '2026-10-02', 'x', 'simulated');
    // Every sample's market mean (10..16) is in band 2; the other bands have none and stay the market's.
    expect(fit.priced[0]).toEqual(MARKET_ONLY);
    expect(fit.priced[2]?.season).toBeLessThan(0.01);
    expect(fit.priced[2]?.form).toBeLessThan(0.01);
  });

  it('finals that follow the season get a season weight near 1, and never a negative one', () => {
    // The final is the season read; form runs against it (it would earn a negative weight unconstrained).
    const many = Array.from({ length: 2000 }, (_, i) => {
      const season = 10 + (i % 9);
      return {
        ...sample('2026-10-01', 14, season, season, 28 - season),
        reads: { season, form: 28 - season, market: 14, priced: true, games: 40 + (i % 40) },
      };
    });
    const blend = fitCoefficients(many, '2026-10-02', 'x', 'simulated').priced[3] as Blend;
    expect(blend.form).toBe(0);
    expect(blend.season).toBeGreaterThan(0.9);
    expect(blend.season + blend.form).toBeLessThanOrEqual(1);
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

  it('updates the mean on the value so far, by the share of the spread that is doubt about it', () => {
    // Normal prior mean 20, variance 60: the player's own 20 + 0.05·400 = 40, doubt 20.
    const prior = { kind: 'normal', mean: 20, sd: Math.sqrt(60), integer: true } as const;
    // Half played, 14 shown (4 ahead of pace): gain = 20·0.5 / (20·0.25 + 40·0.5) = 0.4,
    // mean 20 + 0.4·4 = 21.6, doubt left 20·(1 − 0.2) = 16;
    // the rest: mean 10.8, variance 0.5·(21.6 + 0.05·21.6²) + 16·0.25 = 26.464
    const rest = remainingGiven(prior, 14, 0.5, 0.05);
    expect(rest.kind).toBe('normal');
    expect(rest.mean).toBeCloseTo(10.8, 12);
    expect(rest.kind === 'normal' && rest.sd ** 2).toBeCloseTo(26.464, 9);
    // Nothing played: the prior itself.
    const start = remainingGiven(prior, 0, 0, 0.05);
    expect(start.mean).toBeCloseTo(20, 12);
    expect(start.kind === 'normal' && start.sd ** 2).toBeCloseTo(60, 9);
  });

  it('with no doubt about the mean it is the prior over the share left (independent increments)', () => {
    const prior = { kind: 'negbin', mean: 6, r: 4 } as const; // own spread 1/r = 0.25: all of it
    const rest = remainingGiven(prior, 5, 0.5, 0.25);
    const plain = remainingModel(prior, 0.5);
    expect(rest.mean).toBeCloseTo(plain.mean, 12);
    expect(rest.kind === 'negbin' && rest.r).toBeCloseTo(plain.kind === 'negbin' ? plain.r : 0, 9);
  });
});

describe('the live scale', () => {
  it('scales the log-odds given no push, keeping the push', () => {
    // q = 0.6 / 0.9 = 2/3, log-odds ln 2; doubled: odds 4, q 0.8 of the 0.9 not pushed.
    const p = sharpened({ pOver: 0.6, pUnder: 0.3, pPush: 0.1 }, 2);
    expect(p.pOver).toBeCloseTo(0.72, 12);
    expect(p.pUnder).toBeCloseTo(0.18, 12);
    expect(p.pPush).toBe(0.1);
    expect(sharpened({ pOver: 1, pUnder: 0, pPush: 0 }, 2)).toEqual({ pOver: 1, pUnder: 0, pPush: 0 });
  });

  it('is fitted on the days before the one predicted only', () => {
    // At 0.6 the over came in 69.2 % of the time (and at 0.4, 30.8 %): σ(b · logit 0.6) = 0.692 at
    // b = logit 0.692 / logit 0.6 = 0.809438 / 0.405465 = 1.99632.
    const day = (date: string, q: number, overs: number) =>
      Array.from({ length: 1000 }, (_, i) => ({ date, q, over: i < overs }));
    const earlier = [...day('2026-10-01', 0.6, 692), ...day('2026-10-01', 0.4, 308)];
    const later = [...day('2026-10-02', 0.6, 100), ...day('2026-10-02', 0.4, 900)];
    expect(fitLiveScale([...earlier, ...later], '2026-10-02')).toBe(1.996);
    // Chances already published at a scale of 2 that score best as they are stay at 2.
    expect(fitLiveScale([...day('2026-10-01', 0.6, 600), ...day('2026-10-01', 0.4, 400)], '2026-10-02', 2)).toBe(2);
  });
});
