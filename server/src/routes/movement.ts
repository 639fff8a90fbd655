import { callerOfRequest } from '../auth/guard';
import { boardDataOf } from '../queries/board';
import { moversQuery } from '../queries/movers';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const movement =
  (deps: RouteDeps): RouteImpl<'movement'> =>
  async ({ query, request, reply }) =>
    sendPrepared(request, reply, await moversQuery(deps, callerOfRequest(request), query, boardDataOf(deps)));
