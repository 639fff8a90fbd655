/**
 * POST /mcp: the agent tools over Streamable HTTP, for both MCP revisions: 2025-11-25 clients
 * (`initialize`, then one request per POST) and 2026-07-28 clients (stateless: `server/discover`,
 * the per-request `_meta` envelope, the Mcp-Method / Mcp-Name headers). The official SDK's
 * handler tells the two apart and answers each by its rules, from a fresh server per request.
 *
 * In front of it, in this order: the Host/Origin guard (DNS rebinding), the REST routes' key
 * guard (same keys, tiers, limits and usage: one POST is one request; a server/discover passes
 * without a valid key), and the batch refusal
 * (batches, dropped by MCP in 2025-06-18, would let one counted request run a hundred tool
 * calls). Every refusal is a JSON-RPC error echoing the request's id, under the HTTP status
 * the REST routes would answer, with the REST error code in `error.data.error`.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { type AuthInfo, createMcpHandler } from '@modelcontextprotocol/server';
import type { PropsApi } from '@propsfeed/contract';
import type {
  FastifyError,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { type ErrorAnswer, errorAnswer, errorHeaders } from '../errors/answer';
import { ApiError } from '../errors/apiError';
import { createHostGuard, type HostPolicy, hostPolicy } from '../net/hostGuard';
import type { QueryDeps } from '../queries/deps';
import { createLocalApi } from '../queries/local';
import { createPropsMcpServer } from './server';

export interface McpRouteOptions {
  /** The REST routes' key guard: authenticates, checks the tier, counts the request. */
  guard: preHandlerAsyncHookHandler;
  /** What the REST routes query; the tools get the same API for the guarded caller. */
  queryDeps: QueryDeps;
  /** Host names and origins accepted beside loopback (PROPS_ALLOWED_HOSTS, PROPS_ALLOWED_ORIGINS). */
  hosts?: HostPolicy;
}

export const MCP_PATH = '/mcp';

/** JSON-RPC 2.0 error codes: the spec's own, and -32000 (server error) for the API's refusals. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const SERVER_ERROR = -32000;
const INTERNAL_ERROR = -32603;

/** The id of the message a refusal answers, when the body was one message with an id. */
function messageId(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A refusal as a JSON-RPC error; `data` carries the REST envelope's code (and tier, retry). */
export function jsonRpcError(answer: ErrorAnswer, id: string | number | null) {
  const { error, message, requiredTier } = answer.body;
  const code = answer.unexpected
    ? INTERNAL_ERROR
    : answer.unparsable
      ? PARSE_ERROR
      : error === 'invalid_request'
        ? INVALID_REQUEST
        : SERVER_ERROR;
  return {
    jsonrpc: '2.0' as const,
    id,
    error: {
      code,
      message,
      data: {
        error,
        ...(requiredTier ? { requiredTier } : {}),
        ...(answer.retryAfter !== undefined ? { retryAfter: answer.retryAfter } : {}),
      },
    },
  };
}

function answerJsonRpcError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const answer = errorAnswer(err, request);
  if (answer.unexpected) request.log.error({ err }, 'mcp request failed');
  reply.headers(errorHeaders(answer));
  return reply.status(answer.status).send(jsonRpcError(answer, messageId(request.body)));
}

/** After the guard (so it is authenticated and counted): one message per POST. */
async function refuseBatch(request: FastifyRequest): Promise<void> {
  if (Array.isArray(request.body)) {
    throw new ApiError(
      'invalid_request',
      'JSON-RPC batches are not supported (MCP dropped them in 2025-06-18): send one JSON-RPC message per POST',
    );
  }
}

/** The request as the SDK's handler takes it (a web Request); the body is passed already parsed. */
function webRequestOf(request: FastifyRequest, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://${request.headers.host ?? 'localhost'}${request.url}`, {
    method: request.method,
    headers,
    signal,
  });
}

/** The caller's PropsApi rides to the server factory as the request's authentication. */
interface PropsAuthInfo extends AuthInfo {
  extra: { api: PropsApi };
}

/**
 * server/discover describes the server (revisions, capabilities, instructions), the same for
 * everyone: a caller without a valid key gets it too (uncounted, as any refusal of a key is),
 * so a client learns the revision first and a bad key is then refused on its first real
 * request with the sentence that says why. A valid key's discover counts, as any message does.
 */
function isDiscover(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'server/discover';
}

/** What the server made for a keyless server/discover holds: no query is reachable from it. */
const NO_CALLER: PropsApi = new Proxy({} as PropsApi, {
  get: () => () => Promise.reject(new Error('server/discover runs no query')),
});

function apiOf(authInfo: AuthInfo | undefined): PropsApi {
  return (authInfo as PropsAuthInfo | undefined)?.extra?.api ?? NO_CALLER;
}

/** The /mcp routes, in their own scope so that every error there is answered as JSON-RPC. */
export const mcpRoutes: FastifyPluginAsync<McpRouteOptions> = async (app, opts) => {
  app.setErrorHandler(answerJsonRpcError);
  const log = app.log;
  const handler = createMcpHandler(
    ({ authInfo }) =>
      createPropsMcpServer(apiOf(authInfo), {
        onUnexpected: (err, tool) => log.error({ err, tool }, 'mcp tool failed'),
      }),
    // The SDK reports each request it refuses here too (a bad envelope, a header mismatch): the
    // client has its answer; a server log line per refusal would only be noise.
    { onerror: (err) => log.debug({ err }, 'mcp request refused or failed') },
  );
  app.addHook('onClose', async () => handler.close());
  const hostGuard = createHostGuard(opts.hosts ?? hostPolicy());

  const keyGuard = opts.guard;
  const keyGuardOrDiscover: preHandlerAsyncHookHandler = async function (request, reply) {
    try {
      await keyGuard.call(this, request, reply);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401 && isDiscover(request.body)) return;
      throw err;
    }
  };

  app.post(MCP_PATH, { preHandler: [hostGuard, keyGuardOrDiscover, refuseBatch] }, async (request, reply) => {
    const caller = request.caller;
    const authInfo: PropsAuthInfo | undefined = caller && {
      token: caller.keyPrefix,
      clientId: caller.keyId,
      scopes: [caller.tier],
      extra: { api: createLocalApi(opts.queryDeps, caller) },
    };
    // A client that goes away cancels its request.
    const abort = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    const response = await handler.fetch(webRequestOf(request, abort.signal), {
      ...(authInfo ? { authInfo } : {}),
      parsedBody: request.body,
    });
    reply.status(response.status);
    response.headers.forEach((value, name) => {
      reply.header(name, value);
    });
    if (response.body === null) return reply.send();
    // An SSE answer (a subscriptions/listen, or a 2025-11-25 client's answer) streams; JSON is sent whole.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      return reply.send(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>));
    }
    return reply.send(Buffer.from(await response.arrayBuffer()));
  });

  // Stateless: no server-to-client stream to open (GET) and no session to end (DELETE).
  const notAllowed = async (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({
        jsonrpc: '2.0',
        error: { code: SERVER_ERROR, message: `${MCP_PATH} is stateless: send JSON-RPC by POST` },
        id: messageId(request.body),
      });
  app.route({ method: ['GET', 'DELETE', 'PUT', 'PATCH'], url: MCP_PATH, handler: notAllowed });
};
