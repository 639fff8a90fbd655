import type { GamesResponse, SportId } from '@propsfeed/contract';
import { assertSport } from '../auth/access';
import type { Caller } from '../auth/caller';
import type { Prepared } from '../views';
import type { QueryDeps } from './deps';

/** Games of a sport, live first; tiers without live lines still see live games listed. */
export function gamesQuery(deps: QueryDeps, caller: Caller, sport: SportId): Prepared<GamesResponse> {
  assertSport(caller, sport);
  return deps.views.views(caller.view, caller.policy.delayMs, deps.now()).games(sport);
}
