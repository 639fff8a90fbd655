/** POST /api/v1/slips/evaluate: a slip's chances against each entry type of its book (pro tier and above). */
import { callerOfRequest } from '../auth/guard';
import { evaluateSlipQuery } from '../queries/evaluateSlip';
import type { RouteDeps, RouteImpl } from './deps';

export const evaluateSlip =
  (deps: RouteDeps): RouteImpl<'evaluateSlip'> =>
  async ({ body, request }) => ({ status: 200, body: evaluateSlipQuery(deps, callerOfRequest(request), body.legs) });
