/**
 * Pick'em entry types: each payout table's per-leg breakeven, solved from its payouts, and
 * the tables in force on a given day.
 */
import type { EntryKind, EntryTable, EntryType } from '@propsfeed/contract';
import { BOOK_NAMES, ENTRY_KINDS, ENTRY_TABLES } from '@propsfeed/contract';

/** Probabilities and returns as answered: four decimals. */
export const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

/** P(exactly k of n independent legs win), each with probability p. */
export function binomialPmf(n: number, k: number, p: number): number {
  if (k < 0 || k > n) return 0;
  let coefficient = 1;
  for (let i = 1; i <= k; i++) coefficient = (coefficient * (n - k + i)) / i;
  return coefficient * p ** k * (1 - p) ** (n - k);
}

/** P(exactly k legs win) for k = 0..n when leg i wins with probability ps[i], independently (Poisson binomial). */
export function hitDistribution(ps: readonly number[]): number[] {
  let dist = [1];
  for (const p of ps) {
    const next = new Array<number>(dist.length + 1).fill(0);
    dist.forEach((q, k) => {
      next[k] = (next[k] ?? 0) + q * (1 - p);
      next[k + 1] = (next[k + 1] ?? 0) + q * p;
    });
    dist = next;
  }
  return dist;
}

/** Expected return per unit staked when every leg wins independently with probability p. */
export function expectedReturn(table: Pick<EntryTable, 'picks' | 'payouts'>, p: number): number {
  let total = 0;
  for (const { hits, multiplier } of table.payouts) total += multiplier * binomialPmf(table.picks, hits, p);
  return total;
}

/**
 * The per-leg probability at which the expected return equals the stake. Payouts that grow
 * with hits make the expected return rise with p (from 0 or the zero-hit payout at p = 0 to
 * the full card's multiplier at p = 1), so bisection finds the one root; a table that already
 * returns the stake at p = 0 breaks even at 0.
 */
export function breakeven(table: Pick<EntryTable, 'picks' | 'payouts'>): number {
  if (expectedReturn(table, 0) >= 1) return 0;
  let low = 0;
  let high = 1;
  // 60 halvings take the interval below 1e-18, past double precision around the root.
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (expectedReturn(table, mid) < 1) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

const KIND_NAMES: Record<EntryKind, string> = {
  power: 'Power',
  flex: 'Flex',
  standard: 'Standard',
  insured: 'Insured',
};

export function entryTypeOf(table: EntryTable): EntryType {
  return {
    id: table.id,
    name: `${BOOK_NAMES[table.book]} ${table.picks}-pick ${KIND_NAMES[table.kind]}`,
    book: table.book,
    kind: table.kind,
    picks: table.picks,
    payouts: [...table.payouts].sort((a, b) => b.hits - a.hits),
    effectiveFrom: table.effectiveFrom,
    breakeven: breakeven(table),
  };
}

/** The UTC day of a time, YYYY-MM-DD. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Every payout table (the catalog's, or an operator's replacement) with its breakeven solved
 * once; `inEffect(day)` answers, per entry id, the latest table that took effect by that day.
 */
export class EntryBook {
  private readonly types: EntryType[];
  private lastDay = '';
  private lastInEffect: EntryType[] = [];

  constructor(tables: readonly EntryTable[] = ENTRY_TABLES) {
    this.types = tables.map(entryTypeOf);
  }

  inEffect(day: string): EntryType[] {
    if (day === this.lastDay) return this.lastInEffect;
    const latest = new Map<string, EntryType>();
    for (const t of this.types) {
      if (t.effectiveFrom > day) continue;
      const current = latest.get(t.id);
      if (!current || current.effectiveFrom < t.effectiveFrom) latest.set(t.id, t);
    }
    const kindOrder = (k: EntryKind) => ENTRY_KINDS.indexOf(k);
    this.lastInEffect = [...latest.values()].sort(
      (a, b) => a.book.localeCompare(b.book) || kindOrder(a.kind) - kindOrder(b.kind) || a.picks - b.picks,
    );
    this.lastDay = day;
    return this.lastInEffect;
  }
}
