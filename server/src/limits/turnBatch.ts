import type { LimitDecision, LimitPolicy } from './types';

/**
 * Collects what is added during one turn of the event loop and hands it over together at the
 * turn's end (after its I/O callbacks), in the order added, at most `max` items at a time.
 * Both limiters decide a turn's requests this way: the Redis one in one script call, the
 * in-process one in one pass.
 */
export class TurnBatch<T> {
  private items: T[] = [];

  constructor(
    private readonly run: (batch: T[]) => void,
    private readonly max = Number.POSITIVE_INFINITY,
  ) {}

  add(item: T): void {
    this.items.push(item);
    if (this.items.length === 1) setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    const batch = this.items.splice(0, this.max);
    if (this.items.length > 0) setImmediate(this.flush);
    this.run(batch);
  };
}

/** A `consume` call waiting in a TurnBatch, answered at the end of its turn (both limiters queue these). */
export interface WaitingConsume {
  policy: LimitPolicy;
  nowMs: number;
  resolve: (d: LimitDecision) => void;
}
