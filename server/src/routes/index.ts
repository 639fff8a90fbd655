/**
 * Every contract route, registered in one place (one file per contract key, named after it).
 *
 * For whoever adds or replaces a route file:
 * - A route file exports `(deps: RouteDeps) => AppRouteImplementation<typeof contract.<key>>`;
 *   the handler gets `{ query, params, body, request, reply }` with query/params already
 *   validated against the contract (a bad one never reaches it: 400 invalid_request).
 * - Keyed routes run behind the key guard (auth/guard.ts): `callerOfRequest(request)` is the
 *   caller: tier, `policy` (limits/policy.ts: sports, liveLines, delayMs, scanLimit) and
 *   `view`. The guard already refused routes above the caller's tier (contract metadata).
 * - The board: `deps.views.views(caller.view, caller.policy.delayMs, deps.now())` gives the
 *   caller's view of the board (delayed for the free tier); `.board` is the Board itself.
 *   Tier checks for sports and live games: queries/access.ts.
 * - Refuse with `throw new ApiError(code, message, { requiredTier })` (queries/errors.ts).
 *   Answer big or often-read bodies with `sendPrepared(request, reply, Prepared.of(value))`
 *   (ETag, 304, gzip/br), or `{ status: 200, body }` for small per-caller ones.
 */

import { contract, type RouteMeta } from '@propsfeed/contract';
import { type AppRoute, checkZodSchema, isAppRouteNoBody, isAppRouteOtherResponse } from '@ts-rest/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createKey } from './createKey';
import type { RouteDeps, RouteImpl } from './deps';
import { gameProps } from './gameProps';
import { games } from './games';
import { me } from './me';
import { movement } from './movement';
import { playerContext } from './playerContext';
import { playerProps } from './playerProps';
import { propHistory } from './propHistory';
import { scan } from './scan';
import { sports } from './sports';

export type { RouteDeps } from './deps';

type ZodIssues = { issues?: Array<{ path: Array<string | number>; message: string }> } | null;

/** The zod errors of a request, by part (the shape of ts-rest's RequestValidationError). */
export interface RequestIssues {
  pathParams: unknown;
  query: unknown;
  body: unknown;
  headers: unknown;
}

/** One sentence naming each bad parameter. */
export function describeValidationError(err: RequestIssues): string {
  const parts: string[] = [];
  const add = (where: string, e: ZodIssues) => {
    for (const issue of e?.issues ?? []) {
      const name = issue.path.length > 0 ? issue.path.join('.') : where;
      parts.push(`${name}: ${issue.message}`);
    }
  };
  add('path', err.pathParams as ZodIssues);
  add('query', err.query as ZodIssues);
  add('body', err.body as ZodIssues);
  add('headers', err.headers as ZodIssues);
  return parts.length > 0 ? `invalid request (${parts.join('; ')})` : 'invalid request';
}

type Handler = (args: {
  params: unknown;
  query: unknown;
  headers: unknown;
  body: unknown;
  request: FastifyRequest;
  reply: FastifyReply;
  appRoute: AppRoute;
}) => Promise<{ status: number; body: unknown }>;

/**
 * One contract route as a plain Fastify route. It does what ts-rest's Fastify adapter does
 * (the route's own zod schemas validate params, headers, query and body; a 304 goes without
 * a body) minus the layers a request paid for and did not use: per request, only the parts
 * the route declares are parsed, and a bad one answers 400 invalid_request.
 */
function registerRoute(
  app: FastifyInstance,
  appRoute: AppRoute,
  handler: Handler,
  preHandler: ReturnType<RouteDeps['guardFor']> | undefined,
): void {
  const pathParams = appRoute.pathParams;
  const headers = appRoute.headers;
  const query = appRoute.query;
  const body = 'body' in appRoute ? appRoute.body : null;
  app.route({
    method: appRoute.method,
    url: appRoute.path,
    config: { routeTier: ((appRoute.metadata ?? {}) as RouteMeta).tier ?? 'free' },
    ...(preHandler ? { preHandler } : {}),
    handler: async (request, reply) => {
      const p = checkZodSchema(request.params, pathParams, { passThroughExtraKeys: true });
      const h = checkZodSchema(request.headers, headers, { passThroughExtraKeys: true });
      const q = checkZodSchema(request.query, query);
      const b = checkZodSchema(request.body, body);
      if (!p.success || !h.success || !q.success || !b.success) {
        const issues = {
          pathParams: p.success ? null : p.error,
          headers: h.success ? null : h.error,
          query: q.success ? null : q.error,
          body: b.success ? null : b.error,
        };
        return reply.status(400).send({ error: 'invalid_request', message: describeValidationError(issues) });
      }
      const result = await handler({
        params: p.data,
        query: q.data,
        headers: h.data,
        body: b.data,
        request,
        reply,
        appRoute,
      });
      const responseType = appRoute.responses[result.status];
      if (responseType !== undefined && isAppRouteNoBody(responseType)) return reply.status(result.status).send();
      if (responseType !== undefined && isAppRouteOtherResponse(responseType))
        reply.header('content-type', responseType.contentType);
      return reply.status(result.status).send(result.body);
    },
  });
}

export async function registerContractRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  const routes: { [K in keyof typeof contract]: RouteImpl<K> } = {
    sports: sports(deps),
    games: games(deps),
    gameProps: gameProps(deps),
    scan: scan(deps),
    me: me(deps),
    playerProps: playerProps(deps),
    playerContext: playerContext(deps),
    propHistory: propHistory(deps),
    movement: movement(deps),
    createKey: createKey(deps),
  };
  for (const key of Object.keys(routes) as Array<keyof typeof contract>) {
    const appRoute = contract[key] as AppRoute;
    const meta = (appRoute.metadata ?? {}) as RouteMeta;
    registerRoute(
      app,
      appRoute,
      routes[key] as unknown as Handler,
      meta.public ? undefined : deps.guardFor(meta.tier ?? 'free'),
    );
  }
}
