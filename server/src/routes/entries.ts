/** GET /api/v1/entries: every pick'em entry type in force, with its payouts and computed breakeven. */
import { entriesQuery } from '../queries/entries';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

export const entries =
  (deps: RouteDeps): RouteImpl<'entries'> =>
  async ({ request, reply }) =>
    sendPrepared(request, reply, entriesQuery(deps));
