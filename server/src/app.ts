/**
 * Builds the Fastify app over a Runtime (runtime.ts): contract routes over the board behind the
 * key guard, the stream, health, docs, admin. It only registers; the runtime owns the services.
 */

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { REQUEST_ID_HEADER } from '@propsfeed/contract';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Logger } from 'pino';
import { registerAdminRoutes } from './auth/adminRoutes';
import { createKeyGuard } from './auth/guard';
import { type BoardSource, propCount } from './board/types';
import type { Config } from './config';
import { type CorsOrigins, corsHeaders, registerCors } from './cors';
import { registerDocs } from './docs';
import { errorAnswer, errorHeaders, MAX_PARAM_LENGTH, refusalAnswer } from './errors/answer';
import { answerNotFound } from './errors/notFound';
import { SignupGate } from './keys/signupGate';
import type { LimitPolicy } from './limits/types';
import { lazyChildLogger } from './log/lazyChild';
import { createLogger } from './log/logger';
import { echoRequestId, requestIdOf } from './log/requestId';
import { mcpRoutes } from './mcp/http';
import {
  ConnectionGuard,
  DEFAULT_PER_ADDRESS,
  defaultMaxConnections,
  FIRST_REQUEST_MS,
  KEEP_ALIVE_MS,
} from './net/connections';
import { hostPolicy } from './net/hostGuard';
import { registerJsonBodies } from './net/jsonBody';
import { isTrustedProxy, type TrustProxy } from './net/trustProxy';
import { registerContractRoutes } from './routes';
import { registerStreamRoute } from './routes/stream';
import type { Runtime } from './runtime';
import type { StreamHub } from './stream/hub';
import { readWebBundle, registerWeb } from './web';
import type { WebhookService } from './webhooks/service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open streams of GET /api/v1/stream (the runtime's hub). */
    streams: StreamHub;
    /** Webhook endpoints and their deliveries (the runtime's; absent when it has none). */
    webhooks: WebhookService | undefined;
  }
}

/** How the app answers HTTP: its logging, who may call it from where, its connection caps. */
export interface AppOptions {
  /** Origins browser pages may call from (PROPS_CORS_ORIGINS); default any. */
  corsOrigins?: CorsOrigins;
  /** Host names /mcp answers beside loopback (PROPS_ALLOWED_HOSTS); default none. */
  allowedHosts?: readonly string[] | undefined;
  /** Origins /mcp answers beside those of loopback and the allowed hosts (PROPS_ALLOWED_ORIGINS); default none. */
  allowedOrigins?: readonly string[] | undefined;
  /** New free keys for everyone together (PROPS_SIGNUP_PER_MINUTE, PROPS_SIGNUP_PER_DAY). */
  signupCeiling?: LimitPolicy | undefined;
  /** Whose X-Forwarded-For decides the client's address (PROPS_TRUST_PROXY); default nobody's. */
  trustProxy?: TrustProxy | undefined;
  /** Client connections at most, in all and per address (PROPS_MAX_CONNECTIONS…); default from the open-file limit. */
  maxConnections?: number | undefined;
  maxConnectionsPerAddress?: number | undefined;
  /** Enables /admin/v1 when set. */
  adminToken?: string | undefined;
  logLevel?: string | undefined;
  /** Where log lines go (default stdout). */
  logStream?: NodeJS.WritableStream | undefined;
  /** The process's logger (serve passes its own); else one made from logLevel and logStream. */
  logger?: Logger;
}

/** The app's options config names (the logger is the caller's). */
export function appOptionsOf(config: Config): AppOptions {
  return {
    adminToken: config.PROPS_ADMIN_TOKEN,
    corsOrigins: config.PROPS_CORS_ORIGINS,
    allowedHosts: config.PROPS_ALLOWED_HOSTS,
    allowedOrigins: config.PROPS_ALLOWED_ORIGINS,
    signupCeiling: { perMinute: config.PROPS_SIGNUP_PER_MINUTE, perDay: config.PROPS_SIGNUP_PER_DAY },
    trustProxy: config.PROPS_TRUST_PROXY,
    maxConnections: config.PROPS_MAX_CONNECTIONS,
    maxConnectionsPerAddress: config.PROPS_MAX_CONNECTIONS_PER_ADDRESS,
    logLevel: config.PROPS_LOG_LEVEL,
  };
}

/**
 * Fastify's refusals before routing skip the error handler (and, by default, the envelope) and
 * the onRequest hook that sets the request id.
 */
function answerRefusal(err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body } = refusalAnswer(err, request);
  reply.header(REQUEST_ID_HEADER, request.id);
  return reply.status(status).send(body);
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers too large, malformed
 * HTTP, too slow to arrive) get the same envelope as any bad request, then the connection closes.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const message =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? 'the request URL and headers are larger than this server accepts'
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'the request did not arrive in time'
        : 'malformed HTTP request';
  refuseOnSocket(socket, message);
  socket.destroy(err);
}

/** Writes the 400 envelope straight on the socket (no request object to answer through). */
function refuseOnSocket(socket: Duplex, message: string): void {
  const body = JSON.stringify({ error: 'invalid_request', message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
}

/** CONNECT never reaches Fastify: Node hands it over as a tunnel request, which this server is not. */
function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  refuseOnSocket(socket, 'CONNECT is not supported: this server is an API, not a proxy');
  socket.end();
}

/** Fastify's form of it: a hop count as the function Fastify itself makes of one (its types take no number). */
function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust === false ? false : [...trust];
}

/** The Fastify instance: its logger, request ids, refusals before routing, body and proxy settings. */
function fastifyOf(opts: AppOptions): FastifyInstance {
  return Fastify({
    // Typed as Fastify's base logger: the app's hooks and plugins are written against it.
    loggerInstance: (opts.logger ??
      createLogger({
        ...(opts.logLevel ? { level: opts.logLevel } : {}),
        ...(opts.logStream ? { stream: opts.logStream } : {}),
      })) as FastifyBaseLogger,
    childLoggerFactory: lazyChildLogger,
    genReqId: requestIdOf,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: answerClientError,
    // Refusals Fastify makes before routing skip the error handler (and, by default, the envelope).
    frameworkErrors: answerRefusal,
    bodyLimit: 64 * 1024,
    // request.ip: the socket's address unless PROPS_TRUST_PROXY names the proxies in front.
    trustProxy: fastifyTrustProxy(opts.trustProxy ?? false),
    return503OnClosing: true,
    keepAliveTimeout: KEEP_ALIVE_MS,
    // A log line per request costs more than serving many answers; errors are still logged.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(opts.logLevel ?? 'info') }),
  });
}

/** What every answer goes through: the connection caps, request ids and CORS, JSON bodies, the error envelope. */
function registerAnswering(app: FastifyInstance, opts: AppOptions): void {
  app.server.on('connect', refuseConnect);
  const connections = new ConnectionGuard(app.server, {
    max: opts.maxConnections ?? defaultMaxConnections(),
    perAddress: opts.maxConnectionsPerAddress ?? DEFAULT_PER_ADDRESS,
    firstRequestMs: FIRST_REQUEST_MS,
    isProxy: isTrustedProxy(opts.trustProxy ?? false),
  });
  app.addHook('onClose', async () => connections.stop());
  // One onRequest hook (callback style) for what every answer carries: a hook per concern
  // costs each request another hook call and its bookkeeping.
  const cors = corsHeaders(opts.corsOrigins ?? '*');
  app.addHook('onRequest', (request, reply, done) => {
    echoRequestId(request, reply);
    cors(request, reply);
    done();
  });
  registerCors(app);
  registerJsonBodies(app);
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const answer = errorAnswer(err, request);
    if (answer.unexpected) request.log.error({ err }, 'request failed');
    reply.headers(errorHeaders(answer));
    return reply.status(answer.status).send(answer.body);
  });
  app.setNotFoundHandler(answerNotFound);
}

/** /healthz (the process answers) and /readyz (the feed has a board). */
function registerHealth(app: FastifyInstance, feed: BoardSource): void {
  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (_request, reply) => {
    const board = feed.current();
    const ready = feed.ready() && board.version > 0;
    return reply.status(ready ? 200 : 503).send({
      ready,
      boardVersion: board.version,
      fetchedAt: board.fetchedAt > 0 ? new Date(board.fetchedAt).toISOString() : null,
      games: board.games.length,
      props: propCount(board),
      books: feed.health(),
    });
  });
}

/**
 * The app over the runtime's services: plugins, hooks and routes, nothing started. Closing it
 * ends the open streams and drains requests; the runtime's close stops the services after.
 */
export async function createApp(runtime: Runtime, opts: AppOptions = {}): Promise<FastifyInstance> {
  const app = fastifyOf(opts);
  const { keys, limiter, now, store } = runtime;
  const guardDeps = { keys, limiter, now };
  const guard = createKeyGuard(guardDeps);
  const tierGuards = { free: createKeyGuard(guardDeps, 'free'), pro: createKeyGuard(guardDeps, 'pro') };
  registerAnswering(app, opts);
  registerHealth(app, runtime.feed);
  const hosts = hostPolicy({
    ...(opts.allowedHosts ? { allowedHosts: opts.allowedHosts } : {}),
    ...(opts.allowedOrigins ? { allowedOrigins: opts.allowedOrigins } : {}),
    corsOrigins: opts.corsOrigins ?? '*',
  });
  await registerDocs(app, hosts);
  await registerWeb(app, hosts, readWebBundle());
  if (opts.adminToken) await registerAdminRoutes(app, { adminToken: opts.adminToken, store, keys, limiter, now });
  await registerContractRoutes(app, {
    ...runtime.queries,
    store,
    keys,
    signups: new SignupGate(limiter, opts.signupCeiling),
    streamTokens: runtime.streamTokens,
    webhooks: runtime.webhooks,
    guardFor: (tier) => tierGuards[tier],
  });
  await app.register(mcpRoutes, { guard, queryDeps: runtime.queries, hosts });
  registerStreamRoute(app, {
    ...guardDeps,
    hub: runtime.streams,
    slots: runtime.streamSlots,
    tokens: runtime.streamTokens,
  });
  app.decorate('streams', runtime.streams);
  app.decorate('webhooks', runtime.webhooks);
  return app;
}
