/** Fair probabilities: de-vig, distributions fitted to hand-built game logs (with pushes), moving a price to another line. */
import { describe, expect, it } from 'vitest';
import type { BoardProp, BookQuote } from '../../src/board/types';
import { devigMultiplicative, impliedProbability } from '../../src/odds/devig';
import {
  calibrateMean,
  describeModel,
  fitStat,
  normalCdf,
  probabilitiesAt,
  type StatModel,
} from '../../src/odds/distribution';
import { round4 } from '../../src/odds/entries';
import {
  FairProbabilities,
  fairProbabilities,
  liveFairProbabilities,
  liveMarketMean,
  preGameChances,
} from '../../src/odds/fair';
import { liveChances } from '../../src/odds/live';
import { type Blend, type Coefficients, marketMean, modelFor, seasonMean } from '../../src/odds/model';
import { gameDay, playerInputBefore } from '../../src/odds/playerInput';

// Expected values below were computed independently with scipy.stats (nbinom, poisson, norm).
const THREES = [3, 1, 4, 2, 0, 5, 2, 3, 1, 6]; // mean 2.7, variance 3.5667: over-dispersed
const REBOUNDS = [7, 8, 6, 7, 9, 8, 7, 6, 8, 7]; // variance 0.9 below the mean: Poisson
const POINTS = [22, 31, 25, 28, 19, 27, 33, 24, 26, 30]; // mean 26.5, sd 4.2492
const FANTASY = [31.5, 28.25, 40, 22.75, 35.5, 30, 27.25, 33]; // fractional: no push

const modelOf = (values: number[], mean: number): StatModel => {
  const fit = fitStat(values, mean);
  if (!('model' in fit)) throw new Error(fit.none);
  return fit.model;
};

describe('de-vig', () => {
  it('scales the implied probabilities of both prices to sum to 1 (multiplicative)', () => {
    expect(impliedProbability(-130)).toBeCloseTo(130 / 230, 15);
    expect(impliedProbability(110)).toBeCloseTo(100 / 210, 15);
    // -130 / +110: implied 0.5652 + 0.4762 = 1.0414 (margin 4.14 %); over 0.5652 / 1.0414.
    const a = devigMultiplicative(-130, 110);
    expect(a.pOver).toBeCloseTo(0.5427435387673957, 12);
    expect(a.overround).toBeCloseTo(0.04140786749482395, 12);
    // -110 / -110: a fair coin under a 4.76 % margin.
    const b = devigMultiplicative(-110, -110);
    expect(b.pOver).toBeCloseTo(0.5, 15);
    expect(b.overround).toBeCloseTo(0.047619047619047616, 12);
  });
});

describe('normal CDF', () => {
  it('matches the tables', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1)).toBeCloseTo(0.8413447460685429, 14);
    expect(normalCdf(-2.5)).toBeCloseTo(0.006209665325776132, 14);
  });
});

describe('distributions fitted to game logs', () => {
  it('count stats: negative binomial when the logs vary more than a Poisson, with a push on an integer line', () => {
    const model = modelOf(THREES, 2.7);
    expect(model.kind).toBe('negbin');
    expect(model.kind === 'negbin' && model.r).toBeCloseTo(8.411538461538463, 10);
    const half = probabilitiesAt(model, 2.5);
    expect(half.pOver).toBeCloseTo(0.4824838554208193, 12);
    expect(half.pUnder).toBeCloseTo(0.5175161445791807, 12);
    expect(half.pPush).toBeUndefined();
    const whole = probabilitiesAt(model, 3);
    expect(whole.pOver).toBeCloseTo(0.2929338221173067, 12);
    expect(whole.pPush).toBeCloseTo(0.1895500333035128, 12);
    expect(whole.pUnder).toBeCloseTo(0.5175161445791807, 12);
  });

  it('count stats: a variance a hair above the mean gives the Poisson’s chances, not a degenerate model', () => {
    // Mean 2.1, variance 2.1 but for floating point: r near 1e16.
    const model = modelOf([5, 1, 2, 1, 4, 3, 1, 1, 2, 1], 2.1);
    expect(model.kind === 'negbin' && model.r).toBeGreaterThan(1e12);
    const poisson = probabilitiesAt({ kind: 'poisson', mean: 2.1 }, 2);
    const negbin = probabilitiesAt(model, 2);
    expect(negbin.pOver).toBeCloseTo(poisson.pOver, 6);
    expect(negbin.pPush).toBeCloseTo(poisson.pPush as number, 6);
    expect(calibrateMean(model, 2, 0.4675).mean).toBeGreaterThan(1.5);
  });

  it('count stats: Poisson when the variance is at most the mean', () => {
    const model = modelOf(REBOUNDS, 7.4);
    expect(model).toEqual({ kind: 'poisson', mean: 7.4 });
    const whole = probabilitiesAt(model, 7);
    expect(whole.pOver).toBeCloseTo(0.46066722702750873, 12);
    expect(whole.pPush).toBeCloseTo(0.14737110353462762, 12);
    expect(whole.pUnder).toBeCloseTo(0.3919616694378638, 12);
    expect(probabilitiesAt(model, 7.5).pOver).toBeCloseTo(0.46066722702750873, 12);
  });

  it('points: a continuity-corrected normal with the logs spread', () => {
    const model = modelOf(POINTS, 26.5);
    expect(model.kind === 'normal' && model.sd).toBeCloseTo(4.249182927993988, 12);
    expect(probabilitiesAt(model, 25.5).pOver).toBeCloseTo(0.5930273268491695, 12);
    const whole = probabilitiesAt(model, 26);
    expect(whole.pOver).toBeCloseTo(0.5, 12);
    expect(whole.pPush).toBeCloseTo(0.09302732684916953, 12);
    expect(whole.pUnder).toBeCloseTo(0.40697267315083047, 12);
  });

  it('fractional stats: a plain normal, no push even on an integer line', () => {
    const model = modelOf(FANTASY, 31);
    const p = probabilitiesAt(model, 30);
    expect(p.pOver).toBeCloseTo(0.5749127059931768, 12);
    expect(p.pPush).toBeUndefined();
  });

  it('no distribution on too few games or no spread', () => {
    expect(fitStat([3, 4, 5, 2, 3, 4, 5], 4)).toEqual({ none: '7 recorded games (at least 8 needed)' });
    expect(fitStat([2, 2, 2, 2, 2, 2, 2, 2], 2)).toEqual({ none: 'no spread in the last 8 games' });
  });

  it('moves a probability known at one line to another through the distribution', () => {
    const q = devigMultiplicative(-130, 110).pOver;
    const moved = calibrateMean(modelOf(POINTS, 26.5), 25.5, q);
    expect(moved.mean).toBeCloseTo(25.95614120086749, 9);
    expect(probabilitiesAt(moved, 24.5).pOver).toBeCloseTo(0.6340831565995093, 9);
    expect(probabilitiesAt(moved, 25).pPush).toBeCloseTo(0.09133961783211386, 9);
  });
});

const ud = (line: number, overOdds?: number, underOdds?: number): BookQuote => ({
  source: 'underdog',
  line,
  ...(overOdds === undefined ? {} : { overOdds }),
  ...(underOdds === undefined ? {} : { underOdds }),
  updatedAt: 0,
});
const pp = (line: number): BookQuote => ({ source: 'prizepicks', line, updatedAt: 0 });

/** Half the market's mean, half the season's, in every band, unshrunk (k = 0): weights a test can follow by hand. */
const HALF: Blend = { season: 0.5, form: 0, kSeason: 0, kForm: 1 };
const HALF_AND_HALF: Coefficients = {
  kind: 'simulated',
  withheld: {},
  priced: [HALF, HALF, HALF, HALF],
  unpriced: [HALF, HALF, HALF, HALF],
  dispersion: { nba: 0.04 },
  inherent: {},
  liveScale: 1,
  fittedOn: 'a test',
};

describe('fair probabilities of a prop', () => {
  const coef = HALF_AND_HALF;
  const input = { sport: 'nba' as const, stat: 'points', values: POINTS, projection: undefined };

  it('reads every book line from one distribution: the priced mean stacked with the season', () => {
    const market = marketMean(25.5, devigMultiplicative(-130, 110).pOver, 0.04);
    const season = seasonMean(POINTS) as number;
    const model = modelFor(0.5 * market + 0.5 * season, 0.04);
    const [udP, ppP] = fairProbabilities([ud(25.5, -130, 110), pp(24.5)], input, coef);
    expect(udP).toMatchObject({ basis: 'prices', pOver: round4(probabilitiesAt(model, 25.5).pOver) });
    expect(ppP).toMatchObject({ basis: 'prices_moved', pOver: round4(probabilitiesAt(model, 24.5).pOver) });
    const r2 = (v: number) => Math.round(v * 100) / 100;
    expect(udP?.method).toBe(
      `Underdog 25.5 -130/+110 de-vigged (margin 4.1 %) reads market ${r2(market)}; mean ${r2(model.mean)} = 0.5 × market ${r2(market)} + 0.5 × season ${r2(season)} (10 games); ${describeModel(model)}; simulated coefficients`,
    );
  });

  it('an integer line carries a push chance, the three summing to 1', () => {
    const [, ppP] = fairProbabilities([ud(25.5, -130, 110), pp(25)], input, coef);
    expect(ppP?.pPush).toBeGreaterThan(0);
    expect((ppP?.pOver ?? 0) + (ppP?.pUnder ?? 0) + (ppP?.pPush ?? 0)).toBeCloseTo(1, 4);
  });

  it('without prices: the line is the market read', () => {
    const [ppP] = fairProbabilities([pp(25.5)], input, coef);
    const model = modelFor(0.5 * 25.5 + 0.5 * (seasonMean(POINTS) as number), 0.04);
    expect(ppP).toMatchObject({ basis: 'distribution', pOver: round4(probabilitiesAt(model, 25.5).pOver) });
  });

  it('too few logs: the market read alone, saying so', () => {
    const [udP] = fairProbabilities([ud(25.5, -110, -110)], { ...input, values: [20, 25] }, coef);
    // 0.5 × market + 0.5 × market (the missing season read is the market's): the even price stays even.
    expect(udP?.pOver).toBeCloseTo(0.5, 3);
    expect(udP?.method).toContain('= 1 × market 25.5 (2 games logged, too few to read)');
  });
});

/** POINTS as logs of November's first ten days, newest first: one a day. */
const POINT_LOGS = POINTS.map((value, i) => ({
  date: `2026-11-${String(10 - i).padStart(2, '0')}`,
  opponent: 'Utah Jazz',
  home: true,
  value,
}));

describe('FairProbabilities', () => {
  it('computes a prop once per quotes, game day and logs version; a live prop by its value and share played', () => {
    const logs = {
      version: 1,
      player: () => ({ byStat: new Map([['points', POINT_LOGS]]) }),
    };
    const fair = new FairProbabilities(logs);
    const game = { sport: 'nba' as const, startTime: '2026-11-22T02:00:00.000Z' };
    const prop = {
      playerKey: 'jokic|den',
      stat: 'points',
      books: [{ source: 'prizepicks', line: 25.5, updatedAt: 0 }],
    } as unknown as BoardProp;
    const first = fair.of(game, prop, false);
    expect(first?.[0]?.basis).toBe('distribution');
    expect(fair.of(game, { ...prop }, false)).toBe(first);
    logs.version = 2;
    expect(fair.of(game, prop, false)).not.toBe(first);
    // Live: none without the value so far or the clock; with them, cached by both.
    expect(fair.of(game, prop, true, 0.5)).toBeUndefined();
    const live = { ...prop, liveValue: 14 } as BoardProp;
    expect(fair.of(game, live, true)).toBeUndefined();
    const half = fair.of(game, live, true, 0.5);
    expect(half?.[0]?.basis).toBe('live');
    expect(fair.of(game, live, true, 0.5004)).toBe(half);
    expect(fair.of(game, live, true, 0.75)).not.toBe(half);
  });

  it('prices a pre-game prop as its lock does: preGameChances over the logs of the days before the game', () => {
    const prop = {
      playerKey: 'jokic|den',
      stat: 'points',
      books: [ud(25.5, -120, 100)],
    } as unknown as BoardProp;
    // The index also holds a game of the same UTC day (an earlier start): the lock never reads it, nor does the scan.
    const sameDay = { date: '2026-11-10', opponent: 'Boston Celtics', home: false, value: 48 };
    const fair = new FairProbabilities({
      version: 1,
      player: () => ({ byStat: new Map([['points', [sameDay, ...POINT_LOGS]]]) }),
    });
    const tenth = { sport: 'nba' as const, startTime: '2026-11-10T23:30:00.000Z' };
    const eleventh = { sport: 'nba' as const, startTime: '2026-11-11T02:00:00.000Z' };
    expect(fair.of(tenth, prop, false)).toEqual(preGameChances(tenth, prop, POINT_LOGS.slice(1)));
    // The same quotes a day later read the 10th's two games: another day, another price.
    const later = fair.of(eleventh, prop, false);
    expect(later).toEqual(preGameChances(eleventh, prop, [sameDay, ...POINT_LOGS]));
    expect(later?.[0]?.pOver).not.toBe(fair.of(tenth, prop, false)?.[0]?.pOver);
  });
});

describe('the player input every pricer reads', () => {
  const logs = [
    { date: '2026-11-09', opponent: 'Utah Jazz', home: true, value: 20 },
    { date: '2026-11-10', opponent: 'Boston Celtics', home: true, value: 30 },
    { date: '2026-11-10', opponent: 'Atlanta Hawks', home: false, value: 10 },
    { date: '2026-11-11', opponent: 'Utah Jazz', home: false, value: 99 },
  ];

  it("keeps the logs dated before the game's day, newest first, two of one date by opponent, whatever order they came in", () => {
    const input = playerInputBefore('nba', 'points', logs, '2026-11-11');
    expect(input.values).toEqual([10, 30, 20]);
    expect(playerInputBefore('nba', 'points', [...logs].reverse(), '2026-11-11')).toEqual(input);
    // Fewer than five games: no projection.
    expect(input.projection).toBeUndefined();
    expect(gameDay({ startTime: '2026-11-11T00:30:00.000Z' })).toBe('2026-11-11');
  });

  it('projects from those same logs', () => {
    const input = playerInputBefore('nba', 'points', [...POINT_LOGS].reverse(), '2026-11-11');
    expect(input.values).toEqual(POINTS);
    // The exponentially weighted mean of the ten, newest weighing most (stats/projection.ts).
    const weights = POINTS.map((_, i) => 0.8 ** i);
    const mean = POINTS.reduce((sum, v, i) => sum + v * (weights[i] as number), 0) / weights.reduce((a, b) => a + b);
    expect(input.projection?.value).toBe(Math.round(mean * 100) / 100);
    expect(input.projection?.sampleN).toBe(10);
  });
});

describe('live chances on the board', () => {
  const coef = HALF_AND_HALF;
  const input = { sport: 'nba' as const, stat: 'points', values: POINTS };

  it('reads the live line back to a whole game: the mean whose share left prices it', () => {
    // A game mean of 24, half left: the book's model of the rest is the remaining half of modelFor(24).
    const rest = {
      kind: 'normal',
      mean: 12,
      sd: Math.sqrt(0.5) * Math.sqrt(24 + 0.04 * 24 * 24),
      integer: true,
    } as const;
    const pOver = probabilitiesAt(rest, 11.5);
    const mean = liveMarketMean(11.5, pOver.pOver / (pOver.pOver + pOver.pUnder), 0.04, 0.5);
    expect(mean).toBeCloseTo(24, 3);
  });

  it('stacks that read with the logs, then conditions on the value so far', () => {
    // 14 so far at half time, Underdog 25.5 even: the rest's line 11.5 at 50 % reads a game mean m.
    const [p] = liveFairProbabilities([ud(25.5, -110, -110)], input, 14, 0.5, coef);
    const m = liveMarketMean(11.5, 0.5, 0.04, 0.5);
    const model = modelFor(0.5 * m + 0.5 * (seasonMean(POINTS) as number), 0.04);
    const expected = liveChances(model, 14, 0.5, 25.5);
    expect(p).toMatchObject({ basis: 'live', pOver: round4(expected.pOver) });
    expect(p?.method).toContain('14 so far, 50 % left');
    // A half line cannot push: no pPush, as before the start.
    expect(p).not.toHaveProperty('pPush');
  });

  it('a prop already over its line is decided; unknown value or clock gives none', () => {
    const [p] = liveFairProbabilities([ud(25.5, -110, -110)], input, 26, 0.6, coef);
    expect(p).toMatchObject({ pOver: 1, pUnder: 0, basis: 'live' });
    expect(liveFairProbabilities([ud(25.5, -110, -110)], input, undefined, 0.6, coef)).toEqual([]);
    expect(liveFairProbabilities([ud(25.5, -110, -110)], input, 10, undefined, coef)).toEqual([]);
  });
});
