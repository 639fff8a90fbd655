import type { ScanQuery, ScanResponse } from '@propsfeed/contract';
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
export function scanQuery(deps: QueryDeps, caller: Caller, params: ScanQuery): Prepared<ScanResponse> {
  const limit = boardRowsLimit(caller, params);
  return deps.views
    .views(caller.view, caller.policy.delayMs, deps.now())
    .scan(params.sport, params.stat ?? null, limit, params.state, { sort: params.sort, minBooks: params.minBooks });
}

/**
 * The checks of a query over the board's rows (scan, edges): the sport, the state and the stat
 * for this caller. Its limit, capped by the tier's scanLimit.
 */
export function boardRowsLimit(caller: Caller, params: Pick<ScanQuery, 'sport' | 'stat' | 'state' | 'limit'>): number {
  assertSport(caller, params.sport);
  assertStateAllowed(caller, params.state);
  if (params.stat !== undefined) assertStatsOfSport(params.sport, [params.stat]);
  return Math.min(params.limit ?? caller.policy.scanLimit, caller.policy.scanLimit);
}
