/** GET /api/v1/props/player: every active prop of one player. */
import { callerOfRequest } from '../auth/guard';
import { playerPropsQuery } from '../queries/playerProps';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const playerProps =
  (deps: RouteDeps): RouteImpl<'playerProps'> =>
  async ({ query, request, reply }) =>
    sendPrepared(request, reply, playerPropsQuery(deps, callerOfRequest(request), query, deps.boardData?.gameLogs));
