import { SPORTS, type SportsResponse } from '@propsfeed/contract';
import type { Caller } from '../auth/caller';
import { allowsSport, lowestTierForSport } from '../limits/policy';
import { Prepared } from '../views';

const byTier = new Map<string, Prepared<SportsResponse>>();

/** The sport catalog with `enabled` per the caller's tier and the tier that unlocks each; one prepared answer per sport set. */
export function sportsQuery(caller: Caller): Prepared<SportsResponse> {
  const key = caller.policy.sports === 'all' ? 'all' : caller.policy.sports.join(',');
  let prepared = byTier.get(key);
  if (!prepared) {
    prepared = Prepared.of({
      sports: SPORTS.map((s) => ({
        id: s.id,
        name: s.name,
        enabled: allowsSport(caller.policy, s.id),
        requiredTier: lowestTierForSport(s.id),
      })),
    });
    byTier.set(key, prepared);
  }
  return prepared;
}
