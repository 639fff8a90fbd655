/** GET /api/v1/props/track-record: how the chances published at lock did against the results (free). */
import { callerOfRequest } from '../auth/guard';
import { boardDataOf } from '../queries/deps';
import { trackRecordQuery } from '../queries/trackRecord';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const trackRecord =
  (deps: RouteDeps): RouteImpl<'trackRecord'> =>
  async ({ query, request, reply }) =>
    sendPrepared(
      request,
      reply,
      await trackRecordQuery(deps, callerOfRequest(request), query, boardDataOf(deps).settlements),
    );
