import { describe, expect, it } from 'vitest';
import { conditionedPmf, oracle, oracleChances } from '../src/oracle';
import { SIM_SPORTS, SimWorld } from '../src/world';

const poisson2 = { kind: 'poisson', mean: 2 } as const;

describe('the oracle', () => {
  it('pre-game: the true distribution at the line', () => {
    // P(X > 1.5) for Poisson(2) = 1 − e^−2 (1 + 2)
    const p = oracleChances([{ model: poisson2, weight: 1, soFar: 0 }], 0, 1.5);
    expect(p.pOver).toBeCloseTo(1 - 3 * Math.exp(-2), 12);
    expect(p.pPush).toBe(0);
    // An integer line pushes with P(X = 2) = 2 e^−2
    expect(oracleChances([{ model: poisson2, weight: 1, soFar: 0 }], 0, 2).pPush).toBeCloseTo(2 * Math.exp(-2), 12);
  });

  it('in-game: the value so far plus the distribution over what is left', () => {
    // Half played, 1 shown: the final is 1 + Poisson(1)
    const pmf = conditionedPmf(poisson2, 0.5, 1);
    expect(pmf[0]).toBe(0);
    expect(pmf[1]).toBeCloseTo(Math.exp(-1), 12);
    expect(pmf[2]).toBeCloseTo(Math.exp(-1), 12);
    expect(pmf[3]).toBeCloseTo(Math.exp(-1) / 2, 12);
    // Over 2.5: Poisson(1) ≥ 2
    expect(oracleChances([{ model: poisson2, weight: 1, soFar: 1 }], 0.5, 2.5).pOver).toBeCloseTo(
      1 - 2 * Math.exp(-1),
      12,
    );
    // A negative binomial's r scales with the share left: NB(mean 1.5, r 1) at a quarter left of NB(6, 4)
    const nb = conditionedPmf({ kind: 'negbin', mean: 6, r: 4 }, 0.75, 3);
    expect(nb[3]).toBeCloseTo(1 / (1 + 1.5), 12);
    // Final: certain
    expect(oracleChances([{ model: poisson2, weight: 1, soFar: 4 }], 1, 3.5)).toEqual({
      pOver: 1,
      pUnder: 0,
      pPush: 0,
    });
  });

  it('sums combos, a part listed twice counting twice', () => {
    // 2·X with X ~ Poisson(2) over 2.5: X ≥ 2
    const p = oracleChances([{ model: poisson2, weight: 2, soFar: 0 }], 0, 2.5);
    expect(p.pOver).toBeCloseTo(1 - 3 * Math.exp(-2), 12);
    // X + Y, both Poisson(2): Poisson(4) over 3.5
    const q = oracleChances(
      [
        { model: poisson2, weight: 1, soFar: 0 },
        { model: poisson2, weight: 1, soFar: 0 },
      ],
      0,
      3.5,
    );
    expect(q.pOver).toBeCloseTo(1 - Math.exp(-4) * (1 + 4 + 8 + 32 / 3), 9);
  });

  it('on the world: certain at the final, and the final value always has mass in-game', () => {
    const world = new SimWorld(7);
    const sport = SIM_SPORTS.find((s) => s.id === 'nba');
    if (!sport) throw new Error('no nba');
    const start = Date.parse('2026-11-10T00:00:00Z');
    const [game] = world.gamesStarting(sport, start, start + 3 * 86_400_000);
    if (!game) throw new Error('no game');
    const [player] = world.roster(sport, game.home);
    if (!player) throw new Error('no player');
    const final = world.value(game, player, 'pra', game.endMs);
    expect(oracle(world, game, player, 'pra', final - 0.5, game.endMs).pOver).toBe(1);
    const mid = (game.startMs + game.endMs) / 2;
    const live = oracle(world, game, player, 'pra', final - 0.5, mid);
    expect(live.pOver).toBeGreaterThan(0);
    expect(live.pOver).toBeLessThan(1);
  });
});
