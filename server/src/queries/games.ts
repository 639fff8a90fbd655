import type { GamesResponse, SportId, StateFilter } from '@propsfeed/contract';
import { assertSport } from '../auth/access';
import type { Caller } from '../auth/caller';
import type { Prepared } from '../views';
import type { QueryDeps } from './deps';

/**
 * Games of a sport: live, then pre-game, then final (recent ones unless `state` says otherwise);
 * tiers without live lines still see live games listed.
 */
export function gamesQuery(
  deps: QueryDeps,
  caller: Caller,
  params: { sport: SportId; state?: StateFilter | undefined },
): Prepared<GamesResponse> {
  assertSport(caller, params.sport);
  return deps.views.views(caller.view, caller.policy.delayMs, deps.now()).games(params.sport, params.state);
}
