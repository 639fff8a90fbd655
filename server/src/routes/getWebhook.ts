/** GET /api/v1/webhooks/:id: one of the key's webhook endpoints (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import type { RouteDeps, RouteImpl } from './deps';
import { webhooksOf } from './webhooksOf';

export const getWebhook =
  (deps: RouteDeps): RouteImpl<'getWebhook'> =>
  async ({ params, request }) => ({
    status: 200,
    body: await webhooksOf(deps).get(callerOfRequest(request), params.id),
  });
