/** POST /api/v1/keys: a free key for anyone, a few per client address per minute and per day. */
import { ApiError } from '../errors/apiError';
import { issueKey } from '../keys/issue';
import { FREE_SIGNUP_LIMITS } from '../limits/policy';
import type { RouteDeps, RouteImpl } from './deps';

export const createKey =
  (deps: RouteDeps): RouteImpl<'createKey'> =>
  async ({ body, request, reply }) => {
    const decision = await deps.limiter.consume(`signup:${request.ip}`, FREE_SIGNUP_LIMITS, deps.now());
    if (!decision.allowed) {
      const retryAfter = decision.retryAfterSeconds ?? 60;
      reply.header('retry-after', retryAfter);
      throw new ApiError('rate_limited', `too many free keys from this address; retry in ${retryAfter} s`, {
        retryAfter,
      });
    }
    const { created, record } = await issueKey(deps.store, {
      tier: 'free',
      label: body.label ?? body.email,
      email: body.email,
    });
    deps.keys.put(record);
    return { status: 201, body: created };
  };
