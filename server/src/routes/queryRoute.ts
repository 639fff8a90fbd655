/**
 * The shape most board routes share: the caller and the validated query string go to one
 * query, and its prepared answer is sent (ETag, 304, gzip/br: send.ts).
 */
import type { Contract } from '@propsfeed/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../auth/caller';
import { callerOfRequest } from '../auth/guard';
import type { Prepared } from '../views';
import type { RouteDeps, RouteImpl } from './deps';
import { sendPrepared } from './send';

/** The validated query string of the contract route `K`. */
type QueryOf<K extends keyof Contract> = Parameters<RouteImpl<K>>[0] extends { query: infer Q } ? Q : never;

/** What the handler reads of ts-rest's input (whose request and reply types name the route). */
interface QueryInput<K extends keyof Contract> {
  query: QueryOf<K>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** The route `K` answered by `answer`: made once per server, so a request costs no closure. */
export function queryRoute<K extends keyof Contract>(
  answer: (deps: RouteDeps, caller: Caller, query: QueryOf<K>) => Prepared | Promise<Prepared>,
): (deps: RouteDeps) => RouteImpl<K> {
  return (deps) =>
    (async ({ query, request, reply }: QueryInput<K>) => {
      const prepared = answer(deps, callerOfRequest(request), query);
      // A synchronous query's answer is not awaited: no extra microtask on the hot path.
      return sendPrepared(request, reply, prepared instanceof Promise ? await prepared : prepared);
    }) as unknown as RouteImpl<K>;
}
