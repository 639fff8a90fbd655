/** GET /api/v1/props: every prop of a sport as rows (contract key `scan`). */
import { callerOfRequest } from '../auth/guard';
import { scanQuery } from '../queries/scan';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const scan =
  (deps: RouteDeps): RouteImpl<'scan'> =>
  async ({ query, request, reply }) =>
    sendPrepared(request, reply, scanQuery(deps, callerOfRequest(request), query));
