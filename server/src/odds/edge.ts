/** Edges: the better side of a prop against an entry type's per-leg breakeven. */
import type { Book, Edge, EntryType, FairProbability, ProbabilityBasis } from '@propsfeed/contract';
import { BOOK_NAMES } from '@propsfeed/contract';
import { round4 } from './entries';

/** Each book's entry type with the lowest breakeven: the default an edge is judged against. */
export function cheapestEntries(types: readonly EntryType[]): Map<Book, EntryType> {
  const byBook = new Map<Book, EntryType>();
  for (const t of types) {
    const current = byBook.get(t.book);
    if (!current || t.breakeven < current.breakeven) byBook.set(t.book, t);
  }
  return byBook;
}

const pct = (v: number) => `${Math.round(v * 1000) / 10} %`;

/**
 * The edge's workings in one sentence a bettor can check: the chance's own figures (its
 * `method`: the inputs, their weights, the mean and the distribution), then the side's chance
 * given no push, the breakeven it is judged against and the difference.
 */
function workingsOf(p: FairProbability, e: Omit<Edge, 'workings'>): string {
  const points = Math.round(e.edge * 1000) / 10;
  return `${p.method}; so ${e.side} ${e.line} at ${BOOK_NAMES[e.source]} wins ${pct(e.probability)} of the time it does not push, against the ${e.entry} breakeven of ${pct(e.breakeven)}: edge ${points > 0 ? '+' : ''}${points} points.`;
}

/** Why the edges of some of these chances are withheld (their basis is in `withheld`), or undefined. */
export function withheldReason(
  probabilities: readonly FairProbability[],
  withheld: Readonly<Partial<Record<ProbabilityBasis, string>>>,
): string | undefined {
  const bases = [...new Set(probabilities.map((p) => p.basis))].filter((b) => withheld[b] !== undefined);
  return bases.length === 0 ? undefined : bases.map((b) => `${b} edges withheld: ${withheld[b]}`).join('; ');
}

/**
 * The best edge among the books' probabilities, each book judged against `entryOf(book)`
 * (none: that book is not judged). The side's chance is taken given no push, since a pushed
 * leg is dropped from the entry rather than lost. A decided live prop has none, nor does a
 * chance whose basis is in `withheld` (not calibrated where it was scored).
 */
export function bestEdge(
  probabilities: readonly FairProbability[],
  entryOf: (book: Book) => EntryType | undefined,
  withheld: Readonly<Partial<Record<ProbabilityBasis, string>>> = {},
): Edge | undefined {
  let best: Omit<Edge, 'workings'> | undefined;
  let from: FairProbability | undefined;
  for (const p of probabilities) {
    if (p.pOver === null || p.pUnder === null || withheld[p.basis] !== undefined) continue;
    // A live prop whose value already beat its line is decided: no book takes that pick.
    if (p.basis === 'live' && (p.pOver >= 1 || p.pUnder >= 1)) continue;
    const entry = entryOf(p.source);
    const decided = p.pOver + p.pUnder;
    if (!entry || !(decided > 0)) continue;
    const side = p.pOver >= p.pUnder ? 'over' : 'under';
    const probability = (side === 'over' ? p.pOver : p.pUnder) / decided;
    const edge = probability - entry.breakeven;
    if (best && edge <= best.edge) continue;
    best = {
      source: p.source,
      line: p.line,
      side,
      probability: round4(probability),
      entry: entry.id,
      breakeven: round4(entry.breakeven),
      edge,
    };
    from = p;
  }
  if (!best || !from) return undefined;
  best.edge = round4(best.edge);
  return { ...best, workings: workingsOf(from, best) };
}
