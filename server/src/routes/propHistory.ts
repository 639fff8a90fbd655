import { callerOfRequest } from '../auth/guard';
import { boardDataOf } from '../queries/board';
import { propHistoryQuery } from '../queries/history';
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
