/**
 * The key guard: a Fastify preHandler that authenticates the bearer key, counts the request
 * against the key's limits, checks the route's tier and sets `request.caller`. Every keyed
 * route uses it, and so can any other keyed entry point (POST /mcp): register it with
 * `preHandler: guard` and put the route's tier in `config.routeTier` (default free).
 */
import type { RouteMeta } from '@propsfeed/contract';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError } from '../errors/apiError';
import type { KeyCache } from '../keys/cache';
import { isWellFormedKey } from '../keys/format';
import type { LimitDecision, Limiter } from '../limits/types';
import { assertRoute } from './access';
import { type Caller, callerOf } from './caller';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the key guard on keyed routes. */
    caller?: Caller;
  }
  interface FastifyContextConfig {
    /** Lowest tier of a keyed route that is not in the ts-rest contract (e.g. /mcp). */
    routeTier?: 'free' | 'pro';
  }
}

export interface GuardDeps {
  keys: KeyCache;
  limiter: Limiter;
  now: () => number;
}

/** The caller a guarded handler runs for; a missing caller is a wiring bug, not bad input. */
export function callerOfRequest(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route is not behind the key guard');
  return request.caller;
}

/** The key from `Authorization: Bearer <key>`; throws the 401 for anything else. */
export function bearerKey(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') {
    throw new ApiError('missing_api_key', 'send your API key as Authorization: Bearer <key>');
  }
  const match = /^\s*bearer(?:\s+(\S*))?\s*$/i.exec(value);
  if (!match) throw new ApiError('invalid_api_key', 'use the Bearer scheme: Authorization: Bearer <key>');
  const key = match[1] ?? '';
  if (key === '') throw new ApiError('missing_api_key', 'send your API key as Authorization: Bearer <key>');
  return key;
}

function setLimitHeaders(reply: FastifyReply, caller: Caller, d: LimitDecision, nowMs: number): void {
  const minuteReset = Math.max(0, Math.ceil((d.minute.resetAt - nowMs) / 1000));
  const dayReset = Math.max(0, Math.ceil((d.day.resetAt - nowMs) / 1000));
  const dayBinds = d.day.remaining < d.minute.remaining;
  reply.header('ratelimit-policy', caller.rateLimitPolicy);
  reply.header(
    'ratelimit',
    `"minute";r=${d.minute.remaining};t=${minuteReset}, "day";r=${d.day.remaining};t=${dayReset}`,
  );
  reply.header('x-ratelimit-limit', dayBinds ? d.day.limit : d.minute.limit);
  reply.header('x-ratelimit-remaining', dayBinds ? d.day.remaining : d.minute.remaining);
  reply.header('x-ratelimit-reset', dayBinds ? dayReset : minuteReset);
}

/**
 * The guard for routes open from `routeTier` up; without it, the tier is read per request
 * from the route's config (`routeTier`, or the contract metadata ts-rest puts there).
 */
/** The caller of a well-formed, active key; throws the 401 for anything else. */
export function authenticate(keys: KeyCache, key: string): Caller {
  const record = isWellFormedKey(key) ? keys.lookup(key) : undefined;
  if (!record) throw new ApiError('invalid_api_key', 'key is invalid, revoked or inactive');
  return callerOf(record);
}

/** Counts one request for the caller, setting the limit headers; throws the 429 when refused. */
export async function countRequest(deps: GuardDeps, caller: Caller, reply: FastifyReply): Promise<void> {
  const nowMs = deps.now();
  const decision = await deps.limiter.consume(caller.keyId, caller.limits, nowMs);
  setLimitHeaders(reply, caller, decision, nowMs);
  if (!decision.allowed) {
    const retryAfter = decision.retryAfterSeconds ?? 1;
    reply.header('retry-after', retryAfter);
    throw decision.reason === 'daily_quota_exceeded'
      ? new ApiError(
          'daily_quota_exceeded',
          `daily quota of ${decision.day.limit} requests used; resets at 00:00 UTC`,
          {
            retryAfter,
          },
        )
      : new ApiError(
          'rate_limited',
          `more than ${decision.minute.limit} requests in a minute; retry in ${retryAfter} s`,
          {
            retryAfter,
          },
        );
  }
}

/**
 * The guard for routes open from `routeTier` up; without it, the tier is read per request
 * from the route's config (`routeTier`, or the contract metadata ts-rest puts there).
 */
export function createKeyGuard(deps: GuardDeps, routeTier?: 'free' | 'pro'): preHandlerAsyncHookHandler {
  return async function keyGuard(request, reply) {
    const caller = authenticate(deps.keys, bearerKey(request.headers.authorization));
    await countRequest(deps, caller, reply);
    // After counting, so the 403 carries the limit headers like every keyed answer.
    const tier = routeTier ?? routeTierOf(request);
    if (tier !== 'free') assertRoute(caller, tier, request.url.split('?')[0] ?? 'this route');
    request.caller = caller;
  };
}

function routeTierOf(request: FastifyRequest): 'free' | 'pro' {
  const config = request.routeOptions.config as { routeTier?: 'free' | 'pro'; tsRestRoute?: { metadata?: unknown } };
  return config.routeTier ?? (config.tsRestRoute?.metadata as RouteMeta | undefined)?.tier ?? 'free';
}
