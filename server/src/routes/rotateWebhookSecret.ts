/** POST /api/v1/webhooks/:id/rotate-secret: a new signing secret; the old one signs too for 24 h (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import type { RouteDeps, RouteImpl } from './deps';
import { webhooksOf } from './webhooksOf';

export const rotateWebhookSecret =
  (deps: RouteDeps): RouteImpl<'rotateWebhookSecret'> =>
  async ({ params, request }) => ({
    status: 200,
    body: await webhooksOf(deps).rotateSecret(callerOfRequest(request), params.id),
  });
