import type { ScanResponse, SportId } from '@propsfeed/contract';
import { assertSport } from '../auth/access';
import type { Caller } from '../auth/caller';
import type { Prepared } from '../views';
import type { QueryDeps } from './deps';
import { assertStatsOfSport } from './statOfSport';

/** Every prop of a sport as rows, live first (left out for tiers without live lines), capped by scanLimit. */
export function scanQuery(
  deps: QueryDeps,
  caller: Caller,
  params: { sport: SportId; stat?: string | undefined; limit?: number | undefined },
): Prepared<ScanResponse> {
  assertSport(caller, params.sport);
  if (params.stat !== undefined) assertStatsOfSport(params.sport, [params.stat]);
  const limit = Math.min(params.limit ?? caller.policy.scanLimit, caller.policy.scanLimit);
  return deps.views
    .views(caller.view, caller.policy.delayMs, deps.now())
    .scan(params.sport, params.stat ?? null, limit);
}
