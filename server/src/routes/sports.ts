/** GET /api/v1/sports: the sport catalog, each enabled or not for the caller's tier. */
import { callerOfRequest } from '../auth/guard';
import { sportsQuery } from '../queries/sports';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const sports =
  (_deps: RouteDeps): RouteImpl<'sports'> =>
  async ({ request, reply }) =>
    sendPrepared(request, reply, sportsQuery(callerOfRequest(request)));
