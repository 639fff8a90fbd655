/**
 * One book's health as /readyz reports it: when it was last fetched and attempted, its
 * failed cycles (a cycle fails when any of its parts failed), skipped items and stats it
 * does not map.
 */
import type { Book } from '@propsfeed/contract';
import type { BookHealth } from '../board/types';
import type { FetchFailure } from '../books/http';
import type { ParseResult } from '../books/types';
import type { FeedLogger } from './logger';

export class BookHealthRecord {
  private readonly health: BookHealth;
  private failures: string[] = [];
  /** A cycle of the book has ended (failed or not): /readyz counts it as tried. */
  attempted = false;

  constructor(book: Book) {
    this.health = {
      source: book,
      fetchedAt: null,
      lastAttemptAt: null,
      lastError: null,
      errorCount: 0,
      consecutiveFailures: 0,
      skippedItems: 0,
      unmappedStats: {},
    };
  }

  get book(): Book {
    return this.health.source;
  }

  get consecutiveFailures(): number {
    return this.health.consecutiveFailures;
  }

  /** A part parsed: its skipped items and unmapped stats add up. */
  parsed(result: ParseResult): void {
    this.health.skippedItems += result.skipped;
    for (const [name, n] of Object.entries(result.unmapped)) {
      this.health.unmappedStats[name] = (this.health.unmappedStats[name] ?? 0) + n;
    }
  }

  failed(part: string, failure: FetchFailure): void {
    this.failures.push(`${part}: ${failure.kind}: ${failure.message}`);
  }

  /**
   * Ends a cycle attempted at `at`: a failed one counts (and is logged) and its errors become
   * lastError; a clean one clears them. Returns whether every part of the cycle succeeded.
   */
  endCycle(at: number, logger: FeedLogger): boolean {
    const h = this.health;
    this.attempted = true;
    h.lastAttemptAt = at;
    if (this.failures.length === 0) {
      h.consecutiveFailures = 0;
      h.lastError = null;
      return true;
    }
    h.errorCount += 1;
    h.consecutiveFailures += 1;
    h.lastError = this.failures.join('; ');
    logger.warn(
      { book: h.source, errors: this.failures, consecutiveFailures: h.consecutiveFailures },
      'book fetch failed; keeping its last good slate',
    );
    this.failures = [];
    return false;
  }

  /** The book's data is as old as its oldest part's last good fetch. */
  fetched(fetchedAt: number): void {
    this.health.fetchedAt = fetchedAt;
  }

  /** A copy, so a reader cannot change the counts. */
  snapshot(): BookHealth {
    return { ...this.health, unmappedStats: { ...this.health.unmappedStats } };
  }
}
