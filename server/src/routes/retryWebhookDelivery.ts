/** POST /api/v1/webhooks/:id/deliveries/:deliveryId/retry: sends a delivery again, same id and body (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import type { RouteDeps, RouteImpl } from './deps';
import { webhooksOf } from './webhooksOf';

export const retryWebhookDelivery =
  (deps: RouteDeps): RouteImpl<'retryWebhookDelivery'> =>
  async ({ params, request }) => ({
    status: 202,
    body: await webhooksOf(deps).retry(callerOfRequest(request), params.id, params.deliveryId),
  });
