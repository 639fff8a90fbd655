/**
 * POST /mcp: the agent tools over Streamable HTTP, stateless (a fresh server and transport per
 * request). The key guard runs first, as on every REST route: same keys, tiers, limits and usage.
 *
 * One JSON-RPC message per POST, so one POST is one request against the key's limits: batches
 * (which the MCP specification dropped in 2025-06-18) are refused rather than let one counted
 * request run a hundred tool calls. Every refusal, the guard's included, is a JSON-RPC error
 * under the HTTP status the REST routes would answer.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type {
  FastifyError,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { callerOfRequest } from '../auth/guard';
import { type ErrorAnswer, errorAnswer } from '../errors/answer';
import { ApiError } from '../errors/apiError';
import type { QueryDeps } from '../queries/deps';
import { createLocalApi } from '../queries/local';
import { createPropsMcpServer } from './server';

export interface McpRouteOptions {
  /** The REST routes' key guard: authenticates, checks the tier, counts the request. */
  guard: preHandlerAsyncHookHandler;
  /** What the REST routes query; the tools get the same API for the guarded caller. */
  queryDeps: QueryDeps;
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
  if (answer.retryAfter !== undefined) reply.header('retry-after', answer.retryAfter);
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

/** The /mcp routes, in their own scope so that every error there is answered as JSON-RPC. */
export const mcpRoutes: FastifyPluginAsync<McpRouteOptions> = async (app, opts) => {
  app.setErrorHandler(answerJsonRpcError);

  app.post(MCP_PATH, { preHandler: [opts.guard, refuseBatch] }, async (request, reply) => {
    const api = createLocalApi(opts.queryDeps, callerOfRequest(request));
    const server = createPropsMcpServer(api, {
      onUnexpected: (err, tool) => request.log.error({ err, tool }, 'mcp tool failed'),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the raw response; carry over what the guard set (rate-limit headers).
    reply.hijack();
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (err) {
      // Hijacked: the error handler cannot answer for us any more.
      request.log.error({ err }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: INTERNAL_ERROR, message: 'internal error' }, id: null }),
        );
      }
    }
  });

  // Stateless: no server-to-client stream to open (GET) and no session to end (DELETE).
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({
        jsonrpc: '2.0',
        error: { code: SERVER_ERROR, message: `${MCP_PATH} is stateless: send JSON-RPC by POST` },
        id: null,
      });
  app.route({ method: ['GET', 'DELETE', 'PUT', 'PATCH'], url: MCP_PATH, handler: notAllowed });
};
