/** GET /api/v1/games/:eventId/props: every prop of one game, optionally only some stats. */
import { callerOfRequest } from '../auth/guard';
import { gamePropsQuery } from '../queries/gameProps';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const gameProps =
  (deps: RouteDeps): RouteImpl<'gameProps'> =>
  async ({ params, query, request, reply }) =>
    sendPrepared(request, reply, gamePropsQuery(deps, callerOfRequest(request), params.eventId, query));
