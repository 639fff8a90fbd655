/**
 * Failed admin-token attempts per client address: after MAX_FAILURES in a window, every admin
 * request from that address is refused (the right token too) until the window ends, so the
 * token cannot be guessed at request speed. Kept in the process (each replica counts its own),
 * for a bounded number of addresses.
 */

export interface AdminFailurePolicy {
  maxFailures: number;
  windowMs: number;
  /** Addresses remembered at most; the oldest is forgotten first. */
  maxAddresses: number;
}

export const ADMIN_FAILURE_POLICY: AdminFailurePolicy = {
  maxFailures: 10,
  windowMs: 15 * 60_000,
  maxAddresses: 10_000,
};

interface Failures {
  count: number;
  /** Epoch ms the address's window started (its first failure in it). */
  since: number;
}

export class AdminFailures {
  private readonly byAddress = new Map<string, Failures>();

  constructor(private readonly policy: AdminFailurePolicy = ADMIN_FAILURE_POLICY) {}

  /** Seconds until the address may try again, or undefined when it may try now. */
  blockedFor(address: string, nowMs: number): number | undefined {
    const f = this.current(address, nowMs);
    if (!f || f.count < this.policy.maxFailures) return undefined;
    return Math.max(1, Math.ceil((f.since + this.policy.windowMs - nowMs) / 1000));
  }

  /** Counts a failed attempt; returns the address's failures in its window. */
  fail(address: string, nowMs: number): number {
    const f = this.current(address, nowMs) ?? { count: 0, since: nowMs };
    f.count += 1;
    this.byAddress.delete(address);
    this.byAddress.set(address, f);
    if (this.byAddress.size > this.policy.maxAddresses) {
      const oldest = this.byAddress.keys().next().value;
      if (oldest !== undefined) this.byAddress.delete(oldest);
    }
    return f.count;
  }

  private current(address: string, nowMs: number): Failures | undefined {
    const f = this.byAddress.get(address);
    if (f && nowMs - f.since >= this.policy.windowMs) {
      this.byAddress.delete(address);
      return undefined;
    }
    return f;
  }
}
