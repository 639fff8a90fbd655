import type { Contract } from '@propsfeed/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { KeyCache } from '../keys/cache';
import type { QueryDeps } from '../queries/deps';
import type { KeyStore } from '../store/types';

/** What route handlers may use: the queries' deps, the key store (key sign-up) and the guard. */
export interface RouteDeps extends QueryDeps {
  store: KeyStore;
  keys: KeyCache;
  guard: preHandlerAsyncHookHandler;
}

/** The handler type of the contract route `K` (what each route file exports a factory of). */
export type RouteImpl<K extends keyof Contract> = Extract<
  RouterImplementation<Contract>[K],
  (...args: never[]) => unknown
>;
