/**
 * The ceilings on self-serve free keys (POST /api/v1/keys). Per network (the client's /24 or
 * /64, net/network.ts), so rotating source addresses inside it resets nothing; and for
 * everyone together (PROPS_SIGNUP_PER_MINUTE, PROPS_SIGNUP_PER_DAY), so a flood from many
 * networks stops too. Counted by the limiter (exact across replicas on Redis, kept across
 * restarts), and only when every ceiling has room: a refused sign-up spends nothing.
 */
import { ApiError } from '../errors/apiError';
import { NETWORK_SIGNUP_LIMITS } from '../limits/policy';
import type { LimitDecision, Limiter, LimitPolicy } from '../limits/types';
import { networkOf } from '../net/network';

/** New free keys from all addresses together, per minute and per UTC day. */
export const DEFAULT_SIGNUP_CEILING: LimitPolicy = { perMinute: 60, perDay: 2_000 };

export class SignupGate {
  constructor(
    private readonly limiter: Limiter,
    private readonly ceiling: LimitPolicy = DEFAULT_SIGNUP_CEILING,
  ) {}

  /** Counts one sign-up from `address`, or throws the 429 that says which ceiling is reached. */
  async admit(address: string, nowMs: number): Promise<void> {
    const [network, everyone] = (await this.limiter.consumeAll(
      [
        { keyId: `signup:net:${networkOf(address)}`, policy: NETWORK_SIGNUP_LIMITS },
        { keyId: 'signup:all', policy: this.ceiling },
      ],
      nowMs,
    )) as [LimitDecision, LimitDecision];
    if (network.allowed && everyone.allowed) return;
    // Only when every ceiling has room again is a retry worth it.
    const retryAfter = Math.max(network.retryAfterSeconds ?? 0, everyone.retryAfterSeconds ?? 0, 1);
    const { perMinute, perDay } = network.allowed ? this.ceiling : NETWORK_SIGNUP_LIMITS;
    const who = network.allowed
      ? 'this server is making no more new free keys for anyone right now'
      : 'too many new free keys from your network (its /24, or /64 for IPv6)';
    throw new ApiError(
      'rate_limited',
      `${who}: at most ${perMinute} a minute and ${perDay} a day; retry in ${retryAfter} s`,
      {
        retryAfter,
      },
    );
  }
}
