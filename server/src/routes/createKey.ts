/** POST /api/v1/keys: a free key for anyone, a few per client address per minute and per day. */
import { MAX_KEY_LABEL_LENGTH } from '@propsfeed/contract';
import { ApiError } from '../errors/apiError';
import { type CreateKeyInput, checkKeyInput, issueKey } from '../keys/issue';
import { FREE_SIGNUP_LIMITS } from '../limits/policy';
import type { RouteDeps, RouteImpl } from './deps';

export const createKey =
  (deps: RouteDeps): RouteImpl<'createKey'> =>
  async ({ body, request, reply }) => {
    const input: CreateKeyInput = { tier: 'free', label: body.label ?? labelOfEmail(body.email), email: body.email };
    // Refused input spends none of the address's sign-ups.
    checkKeyInput(input);
    const decision = await deps.limiter.consume(`signup:${request.ip}`, FREE_SIGNUP_LIMITS, deps.now());
    if (!decision.allowed) {
      const retryAfter = decision.retryAfterSeconds ?? 60;
      reply.header('retry-after', retryAfter);
      throw new ApiError('rate_limited', `too many free keys from this address; retry in ${retryAfter} s`, {
        retryAfter,
      });
    }
    const { created, record } = await issueKey(deps.store, input);
    deps.keys.put(record);
    return { status: 201, body: created };
  };

/** The label of a sign-up that gave none: its email, shortened to a label's length. */
function labelOfEmail(email: string): string {
  return email.length <= MAX_KEY_LABEL_LENGTH ? email : `${email.slice(0, MAX_KEY_LABEL_LENGTH - 1)}…`;
}
