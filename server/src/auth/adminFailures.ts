/**
 * Ceilings on failed admin-token attempts: per client network (its /24, or /64 for IPv6,
 * net/network.ts) and for every address together, per minute and per UTC day, counted by the
 * limiter (exact across replicas on Redis). Past either, a wrong token is answered 429 instead
 * of 401, and not counted. Only failures count, and the token is compared before any ceiling
 * is looked at, so the right token is never refused: whoever shares the admin's address, or
 * floods the ceiling for everyone, cannot lock the admin out. What makes guessing hopeless is
 * the token's length (PROPS_ADMIN_TOKEN, 16 characters or more); the ceilings bound what a
 * guessing flood costs the server and its logs.
 */
import type { LimitDecision, Limiter, LimitPolicy } from '../limits/types';
import { networkOf } from '../net/network';

export interface AdminFailurePolicy {
  perNetwork: LimitPolicy;
  everyone: LimitPolicy;
}

export const ADMIN_FAILURE_POLICY: AdminFailurePolicy = {
  perNetwork: { perMinute: 10, perDay: 100 },
  everyone: { perMinute: 30, perDay: 1_000 },
};

/** A failure counted (how many this minute from the network), or refused past a ceiling. */
export type FailureCount =
  | { counted: true; networkThisMinute: number }
  | { counted: false; retryAfter: number; ceiling: 'network' | 'everyone'; policy: LimitPolicy };

export class AdminFailures {
  constructor(
    private readonly limiter: Limiter,
    private readonly policy: AdminFailurePolicy = ADMIN_FAILURE_POLICY,
  ) {}

  /** Counts a failed attempt from `address` when both ceilings have room. */
  async fail(address: string, nowMs: number): Promise<FailureCount> {
    const [network, everyone] = (await this.limiter.consumeAll(
      [
        { keyId: `admin-failure:net:${networkOf(address)}`, policy: this.policy.perNetwork },
        { keyId: 'admin-failure:all', policy: this.policy.everyone },
      ],
      nowMs,
    )) as [LimitDecision, LimitDecision];
    if (network.allowed && everyone.allowed) {
      return { counted: true, networkThisMinute: network.minute.limit - network.minute.remaining };
    }
    return {
      counted: false,
      retryAfter: Math.max(network.retryAfterSeconds ?? 0, everyone.retryAfterSeconds ?? 0, 1),
      ceiling: network.allowed ? 'everyone' : 'network',
      policy: network.allowed ? this.policy.everyone : this.policy.perNetwork,
    };
  }
}
