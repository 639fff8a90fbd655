/** DELETE /api/v1/webhooks/:id: deletes a webhook endpoint and its delivery log (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import type { RouteDeps, RouteImpl } from './deps';
import { webhooksOf } from './webhooksOf';

export const deleteWebhook =
  (deps: RouteDeps): RouteImpl<'deleteWebhook'> =>
  async ({ params, request }) => {
    await webhooksOf(deps).delete(callerOfRequest(request), params.id);
    return { status: 200, body: { id: params.id, deleted: true as const } };
  };
