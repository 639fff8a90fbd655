import type { KeyInfo } from '@propsfeed/contract';
import type { Caller } from '../auth/caller';
import { keyLimits } from '../limits/policy';
import type { QueryDeps } from './deps';

/** The caller's key, limits and exact usage today (this request included). */
export async function meQuery(deps: QueryDeps, caller: Caller): Promise<KeyInfo> {
  const today = await deps.limiter.usedToday(caller.keyId, deps.now());
  return { ...fixedPart(caller), usage: { today, dailyRemaining: Math.max(0, caller.policy.requestsPerDay - today) } };
}

const heads = new WeakMap<Caller, string>();

/**
 * The same answer as JSON text, for the route (always behind the key guard): everything but
 * the usage is serialized once per key, since /me is asked often and only its counts change.
 */
export async function meJson(deps: QueryDeps, caller: Caller): Promise<string> {
  const today = await usedToday(deps, caller);
  let head = heads.get(caller);
  if (head === undefined) {
    head = JSON.stringify(fixedPart(caller)).slice(0, -1);
    heads.set(caller, head);
  }
  const remaining = Math.max(0, caller.policy.requestsPerDay - today);
  return `${head},"usage":{"today":${today},"dailyRemaining":${remaining}}}`;
}

/**
 * The caller's count today, this request included: the count from the key guard's own
 * check-and-count, just before, when the limiter kept it (no second round trip to Redis).
 */
function usedToday(deps: QueryDeps, caller: Caller): number | Promise<number> {
  const nowMs = (deps.machineNow ?? deps.now)();
  return deps.limiter.countedToday?.(caller.keyId, nowMs) ?? deps.limiter.usedToday(caller.keyId, nowMs);
}

function fixedPart(caller: Caller): Omit<KeyInfo, 'usage'> {
  return { keyPrefix: caller.keyPrefix, tier: caller.tier, label: caller.label, limits: keyLimits(caller.policy) };
}
