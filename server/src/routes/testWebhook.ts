/** POST /api/v1/webhooks/:id/test: sends a ping now and answers with the attempt (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import type { RouteDeps, RouteImpl } from './deps';
import { webhooksOf } from './webhooksOf';

export const testWebhook =
  (deps: RouteDeps): RouteImpl<'testWebhook'> =>
  async ({ params, request }) => ({
    status: 200,
    body: await webhooksOf(deps).test(callerOfRequest(request), params.id),
  });
