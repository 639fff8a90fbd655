/** GET /api/v1/webhooks/:id/deliveries: the endpoint's delivery log, newest first (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import type { RouteDeps, RouteImpl } from './deps';
import { webhooksOf } from './webhooksOf';

export const webhookDeliveries =
  (deps: RouteDeps): RouteImpl<'webhookDeliveries'> =>
  async ({ params, query, request }) => ({
    status: 200,
    body: await webhooksOf(deps).deliveries(callerOfRequest(request), params.id, query),
  });
