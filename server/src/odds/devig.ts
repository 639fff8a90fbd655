/** Removing a book's margin from its two prices. */

/** The win probability American odds imply (with the book's margin in it). */
export function impliedProbability(american: number): number {
  return american < 0 ? -american / (-american + 100) : 100 / (american + 100);
}

/**
 * Multiplicative de-vig: the two implied probabilities scaled so they sum to 1. Their sum
 * above 1 is the book's margin (overround). Answers P(over) given no push.
 */
export function devigMultiplicative(overOdds: number, underOdds: number): { pOver: number; overround: number } {
  const over = impliedProbability(overOdds);
  const under = impliedProbability(underOdds);
  return { pOver: over / (over + under), overround: over + under - 1 };
}
