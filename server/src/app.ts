/** Builds the Fastify app: contract routes over the board behind the key guard, health, docs, admin. */

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
import { type BoardSource, type ProjectionSource, propCount } from './board/types';
import { type CorsOrigins, corsHeaders, registerCors } from './cors';
import { registerDocs } from './docs';
import { errorAnswer, errorHeaders, MAX_PARAM_LENGTH, refusalAnswer } from './errors/answer';
import { answerNotFound } from './errors/notFound';
import type { KeyCache } from './keys/cache';
import { SignupGate } from './keys/signupGate';
import type { Limiter, LimitPolicy } from './limits/types';
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
import { EntryBook, PropOdds } from './odds';
import type { Coefficients } from './odds/model';
import type { BoardData, QueryDeps } from './queries/deps';
import { registerContractRoutes } from './routes';
import { registerStreamRoute } from './routes/stream';
import type { KeyStore } from './store/types';
import { StreamHub, type StreamHubOptions } from './stream/hub';
import type { StreamLog } from './stream/log';
import { MemoryStreamSlots, type StreamSlots } from './stream/slots';
import { MemoryStreamTokens, type StreamTokens } from './stream/tokens';
import { ViewRegistry } from './views';
import { readWebBundle, registerWeb } from './web';
import { type WebhookOptions, WebhookService } from './webhooks/service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open streams of GET /api/v1/stream. */
    streams: StreamHub;
    /** Webhook endpoints and their deliveries (absent when the app was built without them). */
    webhooks: WebhookService | undefined;
  }
}

export interface AppDeps {
  store: KeyStore;
  limiter: Limiter;
  keys: KeyCache;
  source: BoardSource;
  projections?: ProjectionSource;
  /** Game logs, line history and openings for the board routes (player, context, history, movement). */
  boardData?: BoardData;
  /** The pick'em payout tables in force (default: the catalog's). */
  entries?: EntryBook;
  /** The model's coefficients (default: the simulator's; serve passes the real ones when the books are real). */
  coefficients?: Coefficients;
  /** The machine's clock: keys, limits, tokens, admin (default Date.now). */
  now?: () => number;
  /** The board's clock: views, history windows, the stream (PROPS_SIM_CLOCK's on the simulator); default `now`. */
  boardNow?: () => number;
  /** Origins browser pages may call from (PROPS_CORS_ORIGINS); default any. */
  corsOrigins?: CorsOrigins;
  /** Host names /mcp answers beside loopback (PROPS_ALLOWED_HOSTS); default none. */
  allowedHosts?: readonly string[];
  /** Origins /mcp answers beside those of loopback and the allowed hosts (PROPS_ALLOWED_ORIGINS); default none. */
  allowedOrigins?: readonly string[];
  /** New free keys for everyone together (PROPS_SIGNUP_PER_MINUTE, PROPS_SIGNUP_PER_DAY). */
  signupCeiling?: LimitPolicy;
  /** Whose X-Forwarded-For decides the client's address (PROPS_TRUST_PROXY); default nobody's. */
  trustProxy?: TrustProxy;
  /** Client connections at most, in all and per address (PROPS_MAX_CONNECTIONS…); default from the open-file limit. */
  maxConnections?: number;
  maxConnectionsPerAddress?: number;
  /** Enables /admin/v1 when set. */
  adminToken?: string | undefined;
  logLevel?: string;
  /** Where log lines go (default stdout). */
  logStream?: NodeJS.WritableStream;
  /** The process's logger (serve passes its own); else one made from logLevel and logStream. */
  logger?: Logger;
  /** Stream tokens and open-stream counts shared by replicas (Redis); default in this process. */
  streamTokens?: StreamTokens;
  streamSlots?: StreamSlots;
  /** The stream's numbers (buffer cap, retention, heartbeat), for tests and the benchmark. */
  stream?: Partial<Omit<StreamHubOptions, 'source' | 'views' | 'now' | 'log'>>;
  /** The stored stream event log (resumes past the in-memory window); none: such ids get a reset snapshot. */
  streamLog?: StreamLog;
  /** The ingest worker's rendering of each change's events (StreamHubOptions.rendered). */
  renderedEvents?: StreamHubOptions['rendered'];
  /** Webhooks: their store, targets allowed, clock, leadership; none: the webhook routes answer 503. */
  webhooks?: WebhookOptions;
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

export async function createApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Typed as Fastify's base logger: the app's hooks and plugins are written against it.
    loggerInstance: (deps.logger ??
      createLogger({
        ...(deps.logLevel ? { level: deps.logLevel } : {}),
        ...(deps.logStream ? { stream: deps.logStream } : {}),
      })) as FastifyBaseLogger,
    childLoggerFactory: lazyChildLogger,
    genReqId: requestIdOf,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler: answerClientError,
    // Refusals Fastify makes before routing skip the error handler (and, by default, the envelope).
    frameworkErrors: answerRefusal,
    bodyLimit: 64 * 1024,
    // request.ip: the socket's address unless PROPS_TRUST_PROXY names the proxies in front.
    trustProxy: fastifyTrustProxy(deps.trustProxy ?? false),
    return503OnClosing: true,
    keepAliveTimeout: KEEP_ALIVE_MS,
    // A log line per request costs more than serving many answers; errors are still logged.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(deps.logLevel ?? 'info') }),
  });
  const now = deps.now ?? Date.now;
  const boardNow = deps.boardNow ?? now;
  const entries = deps.entries ?? new EntryBook();
  const odds = new PropOdds(entries, deps.boardData?.gameLogs, deps.coefficients);
  const queryDeps: QueryDeps = {
    views: new ViewRegistry(deps.source, deps.projections, odds),
    limiter: deps.limiter,
    now: boardNow,
    machineNow: now,
    boardData: deps.boardData,
    entries,
    ...(deps.coefficients ? { coefficients: deps.coefficients } : {}),
  };
  const guardDeps = { keys: deps.keys, limiter: deps.limiter, now };
  const guard = createKeyGuard(guardDeps);
  const tierGuards = { free: createKeyGuard(guardDeps, 'free'), pro: createKeyGuard(guardDeps, 'pro') };

  app.server.on('connect', refuseConnect);
  const connections = new ConnectionGuard(app.server, {
    max: deps.maxConnections ?? defaultMaxConnections(),
    perAddress: deps.maxConnectionsPerAddress ?? DEFAULT_PER_ADDRESS,
    firstRequestMs: FIRST_REQUEST_MS,
    isProxy: isTrustedProxy(deps.trustProxy ?? false),
  });
  app.addHook('onClose', async () => connections.stop());
  // One onRequest hook (callback style) for what every answer carries: a hook per concern
  // costs each request another hook call and its bookkeeping.
  const cors = corsHeaders(deps.corsOrigins ?? '*');
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

  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (_request, reply) => {
    const board = deps.source.current();
    const ready = deps.source.ready() && board.version > 0;
    return reply.status(ready ? 200 : 503).send({
      ready,
      boardVersion: board.version,
      fetchedAt: board.fetchedAt > 0 ? new Date(board.fetchedAt).toISOString() : null,
      games: board.games.length,
      props: propCount(board),
      books: deps.source.health(),
    });
  });

  const hosts = hostPolicy({
    ...(deps.allowedHosts ? { allowedHosts: deps.allowedHosts } : {}),
    ...(deps.allowedOrigins ? { allowedOrigins: deps.allowedOrigins } : {}),
    corsOrigins: deps.corsOrigins ?? '*',
  });
  await registerDocs(app, hosts);
  await registerWeb(app, hosts, readWebBundle());
  if (deps.adminToken)
    await registerAdminRoutes(app, {
      adminToken: deps.adminToken,
      store: deps.store,
      keys: deps.keys,
      limiter: deps.limiter,
      now,
    });
  const hub = new StreamHub({
    ...deps.stream,
    ...(deps.streamLog ? { log: deps.streamLog } : {}),
    ...(deps.renderedEvents ? { rendered: deps.renderedEvents } : {}),
    source: deps.source,
    views: queryDeps.views,
    now: boardNow,
    // Not an error worth a line: the window starts with the next board.
    onError: (err) => app.log.debug({ err }, 'stream: the feed gave no board history at start'),
  });
  const webhooks =
    deps.webhooks &&
    new WebhookService({
      ...deps.webhooks,
      keys: deps.keys,
      changes: hub,
      queries: queryDeps,
      odds,
      settlements: deps.boardData?.settlements,
      onError: (err) => app.log.error({ err }, 'webhooks: background work failed'),
    });
  const streamTokens = deps.streamTokens ?? new MemoryStreamTokens();
  await registerContractRoutes(app, {
    ...queryDeps,
    store: deps.store,
    keys: deps.keys,
    signups: new SignupGate(deps.limiter, deps.signupCeiling),
    streamTokens,
    webhooks,
    guardFor: (tier) => tierGuards[tier],
  });
  await app.register(mcpRoutes, { guard, queryDeps, hosts });

  hub.start();
  // After the hub: webhooks produce from its changes.
  webhooks?.start();
  // A revoked key's streams end as soon as the key cache hears of it (its poll, or a notice).
  const unwatchKeys = deps.keys.onChange(() => hub.endRevoked((keyId) => deps.keys.isActive(keyId)));
  app.addHook('preClose', async () => {
    unwatchKeys();
    // Before the hub stops: what is being produced is stored, what is under way is recorded.
    await webhooks?.stop();
    hub.stop();
    // What the last boards' changes append is written before the store closes.
    await deps.streamLog?.flush();
  });
  app.decorate('streams', hub);
  app.decorate('webhooks', webhooks);
  registerStreamRoute(app, {
    ...guardDeps,
    hub,
    slots: deps.streamSlots ?? new MemoryStreamSlots(),
    tokens: streamTokens,
  });
  return app;
}
