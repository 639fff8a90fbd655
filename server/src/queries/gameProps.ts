import type { PropsResult, SportId } from '@propsfeed/contract';
import { assertLiveAllowed, assertSport } from '../auth/access';
import type { Caller } from '../auth/caller';
import { ApiError } from '../errors/apiError';
import type { Prepared } from '../views';
import type { QueryDeps } from './deps';
import { assertStatsOfSport } from './statOfSport';

/** `points,pra` or ['points', 'pra'] → sorted distinct keys; null for no filter. */
export function parseStats(stats: string | string[] | undefined): string[] | null {
  if (stats === undefined) return null;
  const list = (Array.isArray(stats) ? stats : [stats]).flatMap((s) => s.split(',')).map((s) => s.trim());
  return [...new Set(list.filter((s) => s !== ''))].sort();
}

/** Props of one game (by its id or the other book's alias), optionally only some stats. */
export function gamePropsQuery(
  deps: QueryDeps,
  caller: Caller,
  eventId: string,
  params: { stats?: string | string[] | undefined },
): Prepared<PropsResult> {
  const views = deps.views.views(caller.view, caller.policy.delayMs, deps.now());
  const game = views.game(eventId);
  if (!game) throw new ApiError('event_not_found', `no props for event ${eventId} (see GET /api/v1/games)`);
  assertSport(caller, game.sport as SportId);
  assertLiveAllowed(caller, game);
  const stats = parseStats(params.stats);
  if (stats) assertStatsOfSport(game.sport, stats);
  return views.gameProps(game, stats);
}
