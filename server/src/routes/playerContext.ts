/** GET /api/v1/context/player: one player's averages, form and hit rates per stat. */
import { callerOfRequest } from '../auth/guard';
import { boardDataOf } from '../queries/deps';
import { playerContextQuery } from '../queries/playerContext';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const playerContext =
  (deps: RouteDeps): RouteImpl<'playerContext'> =>
  async ({ query, request, reply }) =>
    sendPrepared(request, reply, playerContextQuery(deps, callerOfRequest(request), query, boardDataOf(deps).gameLogs));
