/** PATCH /api/v1/webhooks/:id: changes, pauses or resumes a webhook endpoint (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import type { RouteDeps, RouteImpl } from './deps';
import { webhooksOf } from './webhooksOf';

export const updateWebhook =
  (deps: RouteDeps): RouteImpl<'updateWebhook'> =>
  async ({ params, body, request }) => ({
    status: 200,
    body: await webhooksOf(deps).update(callerOfRequest(request), params.id, body),
  });
