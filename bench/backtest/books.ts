/**
 * The backtest's yardsticks beside ours: each book alone, the books' consensus and a model of
 * the logs alone, each as a chance of the over (given no push) at a line. A book's read is the
 * mean at which its quote holds: a priced book's de-vigged chance at its line, a book that
 * posts a line only an even chance at it (its line is the half point nearest its even chance).
 * The consensus weighs the books' reads by how much of each is its own: both books' reads
 * disagree by their own noise, and a line-only read by its rounding besides (a line is read to
 * within a point: variance 1/12), so per sport and stat the books' own noise is what their
 * disagreement shows beyond the rounding. It reads quotes only, never a result.
 */
import type { Book } from '@propsfeed/contract';
import type { BookQuote } from '@propsfeed/server';
import { devigMultiplicative, marketMean, modelFor, probabilitiesAt } from '@propsfeed/server/model';

/** A line-only read is known to within its rounding to the half point: uniform over a point. */
const LINE_ROUNDING = 1 / 12;

export interface BookRead {
  source: Book;
  line: number;
  /** The mean at which the quote holds. */
  mean: number;
  /** The de-vigged chance of the over at `line`, where the book prices it. */
  pOver?: number;
}

/** Each book's read of a prop from its quote. */
export function bookReads(quotes: readonly BookQuote[], dispersion: number): BookRead[] {
  return quotes.map((q) => {
    if (q.overOdds !== undefined && q.underOdds !== undefined) {
      const { pOver } = devigMultiplicative(q.overOdds, q.underOdds);
      return { source: q.source, line: q.line, mean: marketMean(q.line, pOver, dispersion), pOver };
    }
    return { source: q.source, line: q.line, mean: marketMean(q.line, 0.5, dispersion) };
  });
}

/** P(over | no push) at `line` of a read's mean: the book's own chance at its own priced line. */
export function chanceAt(read: Pick<BookRead, 'line' | 'mean' | 'pOver'>, line: number, dispersion: number): number {
  if (read.pOver !== undefined && read.line === line) return read.pOver;
  const p = probabilitiesAt(modelFor(read.mean, dispersion), line);
  return p.pOver / (p.pOver + p.pUnder);
}

/**
 * The consensus weights, learnt from the books' disagreements (quotes only): per sport and
 * stat, the variance of (priced read − line-only read) is twice each book's own noise plus the
 * line's rounding.
 */
export class Consensus {
  private readonly diffs = new Map<string, { n: number; sum: number; squares: number }>();

  /** Adds one prop's two reads (where one is priced and the other a line only). */
  observe(key: string, reads: readonly BookRead[]): void {
    const priced = reads.find((r) => r.pOver !== undefined);
    const lineOnly = reads.find((r) => r.pOver === undefined);
    if (!priced || !lineOnly) return;
    const d = priced.mean - lineOnly.mean;
    const acc = this.diffs.get(key) ?? { n: 0, sum: 0, squares: 0 };
    acc.n++;
    acc.sum += d;
    acc.squares += d * d;
    this.diffs.set(key, acc);
  }

  /** Each book's own noise (variance) for a sport and stat: at least a tenth of the rounding. */
  ownNoise(key: string): number {
    const acc = this.diffs.get(key);
    if (!acc || acc.n < 30) return LINE_ROUNDING;
    const variance = acc.squares / acc.n - (acc.sum / acc.n) ** 2;
    return Math.max(LINE_ROUNDING / 10, (variance - LINE_ROUNDING) / 2);
  }

  /** The consensus mean of a prop's reads: each weighed by 1 / (own noise + its rounding). */
  mean(key: string, reads: readonly BookRead[]): number | null {
    if (reads.length === 0) return null;
    const own = this.ownNoise(key);
    let sum = 0;
    let weights = 0;
    for (const r of reads) {
      const w = 1 / (own + (r.pOver === undefined ? LINE_ROUNDING : 0));
      sum += w * r.mean;
      weights += w;
    }
    return sum / weights;
  }
}
