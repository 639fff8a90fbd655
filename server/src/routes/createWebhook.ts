/** POST /api/v1/webhooks: registers a webhook endpoint; the answer carries its secret, once (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import type { RouteDeps, RouteImpl } from './deps';
import { webhooksOf } from './webhooksOf';

export const createWebhook =
  (deps: RouteDeps): RouteImpl<'createWebhook'> =>
  async ({ body, request }) => ({ status: 201, body: await webhooksOf(deps).create(callerOfRequest(request), body) });
