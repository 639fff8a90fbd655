/**
 * The simulator's own sampling code against closed forms: Φ to a double's precision, a count
 * drawn by inversion, a book's over chance and the whole-number pmf the oracle sums.
 */
import { describe, expect, it } from 'vitest';
import { drawCount, lawOfRest, overShare, phi, pmfOfSum, sidesAt, wholePmf } from '../src/distributions';

describe("the simulator's distributions", () => {
  it('Φ at known points, centre and tails', () => {
    expect(phi(0)).toBe(0.5);
    expect(phi(1.959963984540054)).toBeCloseTo(0.975, 15);
    expect(phi(-3)).toBeCloseTo(0.0013498980316301, 15);
    // Q(7) = 1.279812543885835e-12, to 12 significant digits where the tail is a continued fraction.
    expect(phi(-7) / 1.279812543885835e-12).toBeCloseTo(1, 11);
    expect(phi(-9)).toBe(0);
    expect(phi(9)).toBe(1);
  });

  it('draws a count by inversion: the least k whose P(X ≤ k) reaches u', () => {
    const poisson = { kind: 'poisson', mean: 2 } as const;
    // P(X = 0) = e^−2 = 0.1353…, P(X ≤ 1) = 3e^−2 = 0.4060…
    expect(drawCount(poisson, 0.1)).toBe(0);
    expect(drawCount(poisson, 0.2)).toBe(1);
    expect(drawCount(poisson, 0.41)).toBe(2);
  });

  it('prices the over as P(over | no push), an integer line pushing on its own value', () => {
    const poisson = { kind: 'poisson', mean: 2 } as const;
    expect(overShare(poisson, 1.5)).toBeCloseTo(1 - 3 * Math.exp(-2), 14);
    // Line 2: over X ≥ 3, under X ≤ 1.
    const under = 3 * Math.exp(-2);
    const over = 1 - 5 * Math.exp(-2);
    expect(overShare(poisson, 2)).toBeCloseTo(over / (over + under), 14);
    expect(overShare({ kind: 'normal', mean: 25, sd: 6, integer: true }, 24.5)).toBeCloseTo(1 - phi(-0.5 / 6), 14);
  });

  it('lists a whole-number pmf that sums to 1, and sums independent ones', () => {
    const nb = { kind: 'negbin', mean: 3, r: 2 } as const;
    expect(wholePmf(nb).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 11);
    expect(wholePmf({ kind: 'normal', mean: 40, sd: 7, integer: true }).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 11);
    // Poisson(1) + Poisson(1) is Poisson(2); a half of Poisson(2) left is Poisson(1).
    const half = wholePmf(lawOfRest({ kind: 'poisson', mean: 2 }, 0.5));
    const sum = pmfOfSum(half, half);
    expect(sum[2]).toBeCloseTo(2 * Math.exp(-2), 14);
    expect(sidesAt(sum, 1.5).pOver).toBeCloseTo(1 - 3 * Math.exp(-2), 12);
  });
});
