/**
 * The simulator's oracle (its own sampling code, @propsfeed/sim) and the model's distributions
 * (odds/distribution.ts) are two implementations of the same laws: they agree.
 */
import { oracleChances } from '@propsfeed/sim';
import { describe, expect, it } from 'vitest';
import { probabilitiesAt } from '../../src/odds/distribution';

describe('the oracle', () => {
  it('agrees with the closed forms of the negative binomial and the rounded normal', () => {
    const nb = { kind: 'negbin', mean: 3, r: 2 } as const;
    expect(oracleChances([{ model: nb, weight: 1, soFar: 0 }], 0, 2.5).pOver).toBeCloseTo(
      probabilitiesAt(nb, 2.5).pOver,
      10,
    );
    const normal = { kind: 'normal', mean: 25, sd: 6, integer: true } as const;
    expect(oracleChances([{ model: normal, weight: 1, soFar: 0 }], 0, 24.5).pOver).toBeCloseTo(
      probabilitiesAt(normal, 24.5).pOver,
      10,
    );
  });
});
