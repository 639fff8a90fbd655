import { callerOfRequest } from '../auth/guard';
import { boardDataOf } from '../queries/board';
import { propHistoryQuery } from '../queries/history';
import type { RouteDeps, RouteImpl } from './deps';

export const propHistory =
  (deps: RouteDeps): RouteImpl<'propHistory'> =>
  async ({ query, request }) => ({
    status: 200,
    body: await propHistoryQuery(deps, callerOfRequest(request), query, boardDataOf(deps).history),
  });
