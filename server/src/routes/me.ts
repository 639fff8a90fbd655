/** GET /api/v1/me: the caller's key, limits and usage today. */
import { callerOfRequest } from '../auth/guard';
import { meJson } from '../queries/me';
import type { RouteDeps, RouteImpl } from './deps';
import { JSON_TYPE } from './send';

export const me =
  (deps: RouteDeps): RouteImpl<'me'> =>
  async ({ request, reply }) => {
    reply.header('content-type', JSON_TYPE);
    // JSON text sent as it is (the contract's type cannot say so).
    return { status: 200, body: (await meJson(deps, callerOfRequest(request))) as never };
  };
