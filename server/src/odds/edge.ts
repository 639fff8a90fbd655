/** Edges: the better side of a prop against an entry type's per-leg breakeven. */
import type { Book, Edge, EntryType, FairProbability } from '@propsfeed/contract';
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

/**
 * The best edge among the books' probabilities, each book judged against `entryOf(book)`
 * (none: that book is not judged). The side's chance is taken given no push, since a pushed
 * leg is dropped from the entry rather than lost. A decided live prop has none.
 */
export function bestEdge(
  probabilities: readonly FairProbability[],
  entryOf: (book: Book) => EntryType | undefined,
): Edge | undefined {
  let best: Edge | undefined;
  for (const p of probabilities) {
    if (p.pOver === null || p.pUnder === null) continue;
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
  }
  if (best) best.edge = round4(best.edge);
  return best;
}
