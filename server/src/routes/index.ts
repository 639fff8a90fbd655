/**
 * Every contract route, registered in one place (one file per contract key, named after it).
 *
 * For whoever adds or replaces a route file:
 * - A route file exports `(deps: RouteDeps) => AppRouteImplementation<typeof contract.<key>>`;
 *   the handler gets `{ query, params, body, request, reply }` with query/params already
 *   validated against the contract (a bad one never reaches it: 400 invalid_request).
 *   A route that only hands the caller and its query string to one query and sends the
 *   prepared answer is `queryRoute<'<key>'>(…)` (queryRoute.ts).
 * - Keyed routes run behind the key guard (auth/guard.ts): `callerOfRequest(request)` is the
 *   caller: tier, `policy` (limits/policy.ts: sports, liveLines, delayMs, scanLimit) and
 *   `view`. The guard already refused routes above the caller's tier (contract metadata).
 * - The board: `deps.views.views(caller.view, caller.policy.delayMs, deps.now())` gives the
 *   caller's view of the board (delayed for the free tier); `.board` is the Board itself.
 *   Tier checks for sports and live games: auth/access.ts.
 * - Refuse with `throw new ApiError(code, message, { requiredTier })` (errors/apiError.ts).
 *   Answer big or often-read bodies with `sendPrepared(request, reply, Prepared.of(value))`
 *   (ETag, 304, gzip/br), or `{ status: 200, body }` for small per-caller ones.
 */
import { contract, type RouteMeta } from '@propsfeed/contract';
import { initServer, type RequestValidationError } from '@ts-rest/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { missingBodyMessage } from '../errors/answer';
import { bodyMissing, describeIssues } from '../errors/validation';
import { createKey } from './createKey';
import { createWebhook } from './createWebhook';
import { deleteWebhook } from './deleteWebhook';
import type { RouteDeps, RouteImpl } from './deps';
import { edges } from './edges';
import { entries } from './entries';
import { evaluateSlip } from './evaluateSlip';
import { gameProps } from './gameProps';
import { games } from './games';
import { getWebhook } from './getWebhook';
import { listWebhooks } from './listWebhooks';
import { me } from './me';
import { movement } from './movement';
import { playerContext } from './playerContext';
import { playerProps } from './playerProps';
import { propHistory } from './propHistory';
import { results } from './results';
import { retryWebhookDelivery } from './retryWebhookDelivery';
import { rotateWebhookSecret } from './rotateWebhookSecret';
import { scan } from './scan';
import { sports } from './sports';
import { streamToken } from './streamToken';
import { testWebhook } from './testWebhook';
import { trackRecord } from './trackRecord';
import { updateWebhook } from './updateWebhook';
import { webhookDeliveries } from './webhookDeliveries';

export type { RouteDeps } from './deps';

/** One sentence naming each bad parameter (or saying the body is missing). */
export function describeValidationError(err: RequestValidationError, request: FastifyRequest): string {
  if (bodyMissing(err.body)) return missingBodyMessage(request);
  return describeIssues([
    ['path', err.pathParams],
    ['query', err.query],
    ['body', err.body],
    ['headers', err.headers],
  ]);
}

export async function registerContractRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const s = initServer();
  const keyed = <T extends keyof typeof contract>(key: T, handler: RouteImpl<T>) => {
    const meta = (contract[key].metadata ?? {}) as RouteMeta;
    return meta.public ? handler : { handler, hooks: { preHandler: deps.guardFor(meta.tier ?? 'free') } };
  };
  const router = s.router(contract, {
    sports: keyed('sports', sports(deps)),
    games: keyed('games', games(deps)),
    gameProps: keyed('gameProps', gameProps(deps)),
    scan: keyed('scan', scan(deps)),
    me: keyed('me', me(deps)),
    playerProps: keyed('playerProps', playerProps(deps)),
    playerContext: keyed('playerContext', playerContext(deps)),
    propHistory: keyed('propHistory', propHistory(deps)),
    movement: keyed('movement', movement(deps)),
    entries: keyed('entries', entries(deps)),
    edges: keyed('edges', edges(deps)),
    evaluateSlip: keyed('evaluateSlip', evaluateSlip(deps)),
    results: keyed('results', results(deps)),
    trackRecord: keyed('trackRecord', trackRecord(deps)),
    createKey: keyed('createKey', createKey(deps)),
    streamToken: keyed('streamToken', streamToken(deps)),
    createWebhook: keyed('createWebhook', createWebhook(deps)),
    listWebhooks: keyed('listWebhooks', listWebhooks(deps)),
    getWebhook: keyed('getWebhook', getWebhook(deps)),
    updateWebhook: keyed('updateWebhook', updateWebhook(deps)),
    deleteWebhook: keyed('deleteWebhook', deleteWebhook(deps)),
    rotateWebhookSecret: keyed('rotateWebhookSecret', rotateWebhookSecret(deps)),
    testWebhook: keyed('testWebhook', testWebhook(deps)),
    webhookDeliveries: keyed('webhookDeliveries', webhookDeliveries(deps)),
    retryWebhookDelivery: keyed('retryWebhookDelivery', retryWebhookDelivery(deps)),
    // `stream` (text/event-stream) is registered beside ts-rest: routes/stream.ts.
  } as never);
  // Its own scope: registerRouter sets an error handler on the instance it is given, which
  // would otherwise replace the app's own.
  await app.register(async (scope) => {
    s.registerRouter(contract, router, scope, {
      logInitialization: false,
      responseValidation: false,
      requestValidationErrorHandler: (err: RequestValidationError, req: FastifyRequest, reply: FastifyReply) =>
        reply.status(400).send({ error: 'invalid_request', message: describeValidationError(err, req) }),
    });
  });
}
