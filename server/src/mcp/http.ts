/**
 * POST /mcp: the agent tools over Streamable HTTP, stateless (a fresh server and transport per
 * request). The key guard runs first, as on every REST route: same keys, tiers, limits and usage.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { callerOfRequest } from '../auth/guard';
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

export function registerMcpRoute(app: FastifyInstance, opts: McpRouteOptions): void {
  app.post(MCP_PATH, { preHandler: opts.guard }, async (request, reply) => {
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
      // Hijacked: Fastify's error handler cannot answer for us any more.
      request.log.error({ err }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }));
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
        error: { code: -32000, message: `${MCP_PATH} is stateless: send JSON-RPC by POST` },
        id: null,
      });
  app.get(MCP_PATH, notAllowed);
  app.delete(MCP_PATH, notAllowed);
}
