import { callerOfRequest } from '../auth/guard';
import { meQuery } from '../queries/me';
import type { RouteDeps, RouteImpl } from './deps';

export const me =
  (deps: RouteDeps): RouteImpl<'me'> =>
  async ({ request }) => ({ status: 200, body: await meQuery(deps, callerOfRequest(request)) });
