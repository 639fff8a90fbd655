/** GET /api/v1/props/results: the settled props of a day (free: yesterday and earlier; pro and above: today too). */
import { callerOfRequest } from '../auth/guard';
import { boardDataOf } from '../queries/deps';
import { resultsQuery } from '../queries/results';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const results =
  (deps: RouteDeps): RouteImpl<'results'> =>
  async ({ query, request, reply }) =>
    sendPrepared(
      request,
      reply,
      await resultsQuery(deps, callerOfRequest(request), query, boardDataOf(deps).settlements),
    );
