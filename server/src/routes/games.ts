/** GET /api/v1/games: the games of a sport on the caller's board, live first. */
import { callerOfRequest } from '../auth/guard';
import { gamesQuery } from '../queries/games';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const games =
  (deps: RouteDeps): RouteImpl<'games'> =>
  async ({ query, request, reply }) =>
    sendPrepared(request, reply, gamesQuery(deps, callerOfRequest(request), query));
