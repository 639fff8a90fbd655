/** GET /api/v1/props/edges: the caller's board sorted by edge (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import { edgesQuery } from '../queries/edges';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const edges =
  (deps: RouteDeps): RouteImpl<'edges'> =>
  async ({ query, request, reply }) =>
    sendPrepared(request, reply, edgesQuery(deps, callerOfRequest(request), query));
