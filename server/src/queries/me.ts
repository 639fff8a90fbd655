import type { KeyInfo } from '@propsfeed/contract';
import { keyLimits } from '../limits/policy';
import type { Caller } from './caller';
import type { QueryDeps } from './deps';

/** The caller's key, limits and exact usage today (this request included). */
export async function meQuery(deps: QueryDeps, caller: Caller): Promise<KeyInfo> {
  const today = await deps.limiter.usedToday(caller.keyId, deps.now());
  return {
    keyPrefix: caller.keyPrefix,
    tier: caller.tier,
    label: caller.label,
    limits: keyLimits(caller.policy),
    usage: { today, dailyRemaining: Math.max(0, caller.policy.requestsPerDay - today) },
  };
}
