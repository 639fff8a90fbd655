/** GET /api/v1/webhooks: the key's webhook endpoints (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import type { RouteDeps, RouteImpl } from './deps';
import { webhooksOf } from './webhooksOf';

export const listWebhooks =
  (deps: RouteDeps): RouteImpl<'listWebhooks'> =>
  async ({ request }) => ({ status: 200, body: await webhooksOf(deps).list(callerOfRequest(request)) });
