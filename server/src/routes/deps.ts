import type { Contract } from '@propsfeed/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import type { preHandlerAsyncHookHandler } from 'fastify';
import type { KeyCache } from '../keys/cache';
import type { SignupGate } from '../keys/signupGate';
import type { QueryDeps } from '../queries/deps';
import type { KeyStore } from '../store/types';
import type { StreamTokens } from '../stream/tokens';
import type { WebhookService } from '../webhooks/service';

/** What route handlers may use: the queries' deps, the key store (key sign-up), stream tokens and the key guards. */
export interface RouteDeps extends QueryDeps {
  store: KeyStore;
  keys: KeyCache;
  /** The ceilings on free sign-ups. */
  signups: SignupGate;
  /** Tokens that open one stream each (POST /api/v1/stream/tokens, GET /api/v1/stream?token=). */
  streamTokens: StreamTokens;
  /** Webhook endpoints and deliveries; absent: the webhook routes answer 503. */
  webhooks?: WebhookService | undefined;
  /** The key guard of routes open from `tier` up (auth/guard.ts). */
  guardFor(tier: 'free' | 'pro'): preHandlerAsyncHookHandler;
}

/** The handler type of the contract route `K` (what each route file exports a factory of). */
export type RouteImpl<K extends keyof Contract> = Extract<
  RouterImplementation<Contract>[K],
  (...args: never[]) => unknown
>;
