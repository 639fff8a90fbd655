/**
 * The ceilings on self-serve free keys (POST /api/v1/keys), fair to every network:
 *
 * - Per network (the client's /24, or /64 for IPv6: net/network.ts): 3 a minute and 10 a day,
 *   so rotating source addresses inside it resets nothing.
 * - A site's first key of the UTC day (its /24, or /48 for IPv6) is counted only against a
 *   ceiling of its own for everyone's first keys, FIRST_KEYS_FACTOR times the shared one: a
 *   flood from many networks cannot take a newcomer's first key away unless it brings that many
 *   new networks every minute (600 /24s by default), or every day (20,000).
 * - Every other key (a network's second to tenth of the day) is counted against the shared
 *   ceiling for everyone together (PROPS_SIGNUP_PER_MINUTE, PROPS_SIGNUP_PER_DAY), the one a
 *   flood can fill.
 *
 * Counted by the limiter (exact across replicas on Redis, kept across restarts), and only when
 * every ceiling asked has room: a refused sign-up spends nothing.
 */
import { ApiError } from '../errors/apiError';
import { NETWORK_SIGNUP_LIMITS } from '../limits/policy';
import type { LimitDecision, Limiter, LimitPolicy } from '../limits/types';
import { networkOf, siteOf } from '../net/network';

/** Keys beyond each network's first of the day, from all addresses together, per minute and per UTC day. */
export const DEFAULT_SIGNUP_CEILING: LimitPolicy = { perMinute: 60, perDay: 2_000 };
/** How much larger the ceiling on first keys of the day is than the shared one. */
export const FIRST_KEYS_FACTOR = 10;
const ONE_A_DAY: LimitPolicy = { perMinute: 1, perDay: 1 };
const FROM_YOUR_NETWORK = 'too many new free keys from your network (its /24, or /64 for IPv6)';

export class SignupGate {
  private readonly firstKeys: LimitPolicy;

  constructor(
    private readonly limiter: Limiter,
    private readonly ceiling: LimitPolicy = DEFAULT_SIGNUP_CEILING,
  ) {
    this.firstKeys = { perMinute: ceiling.perMinute * FIRST_KEYS_FACTOR, perDay: ceiling.perDay * FIRST_KEYS_FACTOR };
  }

  /** Counts one sign-up from `address`, or throws the 429 that says which ceiling is reached. */
  async admit(address: string, nowMs: number): Promise<void> {
    const network = { keyId: `signup:net:${networkOf(address)}`, policy: NETWORK_SIGNUP_LIMITS };
    const [site, own, first] = (await this.limiter.consumeAll(
      [
        { keyId: `signup:site:${siteOf(address)}`, policy: ONE_A_DAY },
        network,
        { keyId: 'signup:first', policy: this.firstKeys },
      ],
      nowMs,
    )) as [LimitDecision, LimitDecision, LimitDecision];
    if (site.allowed && own.allowed && first.allowed) return;
    if (!own.allowed) throw refusal(own, FROM_YOUR_NETWORK, NETWORK_SIGNUP_LIMITS);
    // Not the site's first key today (or first keys are at their own ceiling): the shared ceiling.
    const [again, everyone] = (await this.limiter.consumeAll(
      [network, { keyId: 'signup:all', policy: this.ceiling }],
      nowMs,
    )) as [LimitDecision, LimitDecision];
    if (again.allowed && everyone.allowed) return;
    if (!again.allowed) throw refusal(again, FROM_YOUR_NETWORK, NETWORK_SIGNUP_LIMITS);
    throw site.allowed
      ? refusal(everyone, 'this server is making no more new free keys for anyone right now', this.ceiling)
      : refusal(
          everyone,
          "your network has had its first key of the day, and this server is making no more beyond each network's first right now",
          this.ceiling,
        );
  }
}

function refusal(decision: LimitDecision, who: string, { perMinute, perDay }: LimitPolicy): ApiError {
  const retryAfter = Math.max(decision.retryAfterSeconds ?? 0, 1);
  return new ApiError(
    'rate_limited',
    `${who}: at most ${perMinute} a minute and ${perDay} a day; retry in ${retryAfter} s`,
    {
      retryAfter,
    },
  );
}
