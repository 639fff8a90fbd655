/** GET /api/v1/props/history: every change of one prop's line since it opened (pro). */
import { callerOfRequest } from '../auth/guard';
import { boardDataOf } from '../queries/deps';
import { propHistoryQuery } from '../queries/propHistory';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const propHistory =
  (deps: RouteDeps): RouteImpl<'propHistory'> =>
  async ({ query, request, reply }) =>
    sendPrepared(
      request,
      reply,
      await propHistoryQuery(deps, callerOfRequest(request), query, boardDataOf(deps).history),
    );
