/** GET /api/v1/props/movement: the board's biggest line movers (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import { boardDataOf } from '../queries/deps';
import { movementQuery } from '../queries/movement';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const movement =
  (deps: RouteDeps): RouteImpl<'movement'> =>
  async ({ query, request, reply }) =>
    sendPrepared(request, reply, await movementQuery(deps, callerOfRequest(request), query, boardDataOf(deps)));
