/** Which coefficients are served, and what they withhold: the real ones when the books are real, the simulator's on it. */
import { describe, expect, it } from 'vitest';
import type { BoardGame, BoardProp, BookQuote } from '../../src/board/types';
import { EntryBook, PropOdds } from '../../src/odds';
import {
  COEFFICIENTS,
  coefficientsLabel,
  REAL_COEFFICIENTS,
  SIMULATED_COEFFICIENTS,
  servedCoefficients,
} from '../../src/odds/coefficients';
import { bestEdge } from '../../src/odds/edge';
import { fairProbabilities } from '../../src/odds/fair';

const quote = (source: BookQuote['source'], line: number, overOdds?: number, underOdds?: number): BookQuote => ({
  source,
  line,
  ...(overOdds === undefined ? {} : { overOdds, underOdds }),
  updatedAt: 0,
});
const input = { sport: 'nba' as const, stat: 'pra', values: [], projection: undefined };

describe('the served coefficients', () => {
  it('are the real ones when the books are real, the simulator’s on the simulator, and say so', () => {
    expect(servedCoefficients(true)).toBe(REAL_COEFFICIENTS);
    expect(servedCoefficients(false)).toBe(SIMULATED_COEFFICIENTS);
    expect(COEFFICIENTS).toBe(SIMULATED_COEFFICIENTS);
    expect(coefficientsLabel(REAL_COEFFICIENTS)).toMatch(
      /^real, fitted on Real NBA player props .*, 2023-10-24\.\.2024-05-19, \d+ finals$/,
    );
    const quotes = [quote('underdog', 30.5, -115, -105), quote('prizepicks', 29.5)];
    expect(fairProbabilities(quotes, input, REAL_COEFFICIENTS)[0]?.method).toMatch(/; real coefficients$/);
    expect(fairProbabilities(quotes, input, SIMULATED_COEFFICIENTS)[0]?.method).toMatch(/; simulated coefficients$/);
  });

  it('withhold the edges of a basis that was not calibrated where it was scored, and say why', () => {
    // Underdog's 30.5 is priced (basis prices, withheld on the real coefficients); PrizePicks' 29.5 is moved (shown).
    const prop = {
      playerKey: 'ann|den',
      stat: 'pra',
      books: [quote('underdog', 30.5, -115, -105), quote('prizepicks', 29.5)],
    };
    const game = { sport: 'nba', live: false, startTime: '2026-11-22T02:00:00.000Z' } as BoardGame;
    const at = Date.parse('2026-11-22T00:00:00Z');
    const real = new PropOdds(new EntryBook(), undefined, REAL_COEFFICIENTS);
    const probabilities = real.probabilities(game, prop as unknown as BoardProp, at) ?? [];
    expect(probabilities.map((p) => p.basis)).toEqual(['prices', 'prices_moved']);
    expect(real.edge(probabilities, at)?.source).toBe('prizepicks');
    expect(real.withheld(probabilities)).toBe(`prices edges withheld: ${REAL_COEFFICIENTS.withheld.prices}`);
    // The same chances judged with nothing withheld: Underdog's line may carry the edge.
    const entries = new EntryBook().inEffect('2026-11-22');
    const all = bestEdge(probabilities, (book) => entries.find((t) => t.book === book));
    const kept = bestEdge(probabilities, (book) => entries.find((t) => t.book === book), REAL_COEFFICIENTS.withheld);
    expect(all).toBeDefined();
    expect(kept?.source).toBe('prizepicks');
    // On the simulator the priced line's edges stand and the moved line's are withheld (its bins missed).
    const sim = new PropOdds(new EntryBook(), undefined, SIMULATED_COEFFICIENTS);
    expect(sim.withheld(sim.probabilities(game, prop as unknown as BoardProp, at) ?? [])).toBe(
      `prices_moved edges withheld: ${SIMULATED_COEFFICIENTS.withheld.prices_moved}`,
    );
  });

  it('keep a prop’s edge with its chances, and judge it again on a day other payouts are in force', () => {
    const prop = { playerKey: 'ann|den', stat: 'pra', books: [quote('underdog', 30.5, -150, 120)] };
    const game = { sport: 'nba', live: false, startTime: '2026-11-22T02:00:00.000Z' } as BoardGame;
    // Underdog's 2-pick Standard pays 3× until the 23rd, then 3.5× (breakeven 57.7 %, then 53.5 %).
    const table = (effectiveFrom: string, multiplier: number) => ({
      id: 'underdog_standard_2',
      book: 'underdog' as const,
      kind: 'standard' as const,
      picks: 2,
      payouts: [{ hits: 2, multiplier }],
      effectiveFrom,
    });
    const entries = new EntryBook([table('2026-01-01', 3), table('2026-11-23', 3.5)]);
    const odds = new PropOdds(entries, undefined, SIMULATED_COEFFICIENTS);
    const day1 = Date.parse('2026-11-22T12:00:00Z');
    const day2 = Date.parse('2026-11-23T12:00:00Z');
    const probabilities = odds.probabilities(game, prop as unknown as BoardProp, day1) ?? [];
    const first = odds.edge(probabilities, day1);
    expect(first?.breakeven).toBe(0.5774);
    // The same chances the same day: the same edge, workings and all, not made again.
    expect(odds.edge(probabilities, day1 + 3_600_000)).toBe(first);
    const next = odds.edge(probabilities, day2);
    expect(next?.breakeven).toBe(0.5345);
    expect(next?.edge).toBeCloseTo((first?.edge ?? 0) + 0.5774 - 0.5345, 3);
    expect(next?.workings).toContain('breakeven of 53.5 %');
    // The simulated coefficients withhold nothing of a priced line; the real ones its edge, whatever the day.
    expect(odds.withheld(probabilities)).toBeUndefined();
    const real = new PropOdds(entries, undefined, REAL_COEFFICIENTS);
    const chances = real.probabilities(game, prop as unknown as BoardProp, day1) ?? [];
    expect(real.withheld(chances)).toBe(`prices edges withheld: ${REAL_COEFFICIENTS.withheld.prices}`);
    expect(real.edge(chances, day1)).toBeUndefined();
    expect(real.edge(chances, day2)).toBeUndefined();
    expect(real.withheld(chances)).toBe(`prices edges withheld: ${REAL_COEFFICIENTS.withheld.prices}`);
  });
});
