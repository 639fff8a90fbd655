/** The authenticated caller every query is asked for: the key and the numbers it runs under. */
import type { Tier } from '@propsfeed/contract';
import { effectivePolicy, type TierPolicy } from '../limits/policy';
import type { LimitPolicy } from '../limits/types';
import type { KeyRecord } from '../store/types';
import { type ViewKind, viewKindOf } from '../views';

export interface Caller {
  keyId: string;
  keyPrefix: string;
  tier: Tier;
  label: string;
  policy: TierPolicy;
  limits: LimitPolicy;
  view: ViewKind;
  /** The RateLimit-Policy header value, fixed per key. */
  rateLimitPolicy: string;
}

const callers = new WeakMap<KeyRecord, Caller>();

/** The caller of a key record; one object per record, so hot paths allocate nothing. */
export function callerOf(record: KeyRecord): Caller {
  let caller = callers.get(record);
  if (!caller) {
    const policy = effectivePolicy(record.tier, record);
    caller = {
      keyId: record.id,
      keyPrefix: record.keyPrefix,
      tier: record.tier,
      label: record.label,
      policy,
      limits: { perMinute: policy.requestsPerMinute, perDay: policy.requestsPerDay },
      view: viewKindOf(policy.delayMs > 0, policy.liveLines, policy.proRoutes),
      rateLimitPolicy: `"minute";q=${policy.requestsPerMinute};w=60, "day";q=${policy.requestsPerDay};w=86400`,
    };
    callers.set(record, caller);
  }
  return caller;
}
