import type { ScanResponse, ScanSort, SportId, StateFilter } from '@propsfeed/contract';
import { assertSport, assertStateAllowed } from '../auth/access';
import type { Caller } from '../auth/caller';
import type { Prepared } from '../views';
import type { QueryDeps } from './deps';
import { assertStatsOfSport } from './statOfSport';

/**
 * Every prop of a sport's open games (or those of `state`) as rows, live first (left out for
 * tiers without live lines), or ordered by `sort` and kept to `minBooks`, both over the whole
 * board before the cap (the limit, then scanLimit).
 */
export function scanQuery(
  deps: QueryDeps,
  caller: Caller,
  params: {
    sport: SportId;
    stat?: string | undefined;
    limit?: number | undefined;
    state?: StateFilter | undefined;
    sort?: ScanSort | undefined;
    minBooks?: number | undefined;
  },
): Prepared<ScanResponse> {
  assertSport(caller, params.sport);
  assertStateAllowed(caller, params.state);
  if (params.stat !== undefined) assertStatsOfSport(params.sport, [params.stat]);
  const limit = Math.min(params.limit ?? caller.policy.scanLimit, caller.policy.scanLimit);
  return deps.views
    .views(caller.view, caller.policy.delayMs, deps.now())
    .scan(params.sport, params.stat ?? null, limit, params.state, { sort: params.sort, minBooks: params.minBooks });
}
