/**
 * CORS, so the SDK runs in browsers: allowed origins come from PROPS_CORS_ORIGINS (default any
 * origin). Keys are bearer tokens sent by the page itself, never cookies, so credentials are
 * never allowed and `*` is safe. Every answer to an allowed origin carries the CORS headers,
 * errors included (a page must be able to read a 401 or a 429 and its Retry-After); preflights
 * (OPTIONS with Access-Control-Request-Method) are answered 204 on every path.
 */
import { REQUEST_ID_HEADER } from '@propsfeed/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** `*` for any origin, else the exact origins allowed. */
export type CorsOrigins = '*' | readonly string[];

const METHODS = 'GET, POST, PATCH, DELETE';
/** What a page sends: its key, a JSON body, its own request id, and what MCP and the stream add. */
const ALLOWED_HEADERS = `Authorization, Content-Type, Accept, ${REQUEST_ID_HEADER}, Last-Event-ID, Mcp-Protocol-Version`;
/** What a page may read besides the CORS-safelisted headers: limits, when to retry, the request id. */
const EXPOSED_HEADERS = `RateLimit, RateLimit-Policy, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ${REQUEST_ID_HEADER}`;
/** Seconds a browser may cache a preflight (Chromium caps it at 7200). */
const PREFLIGHT_MAX_AGE = 600;

function allowedOrigin(origins: CorsOrigins, origin: string | undefined): string | undefined {
  if (origin === undefined) return undefined;
  if (origins === '*') return '*';
  return origins.includes(origin) ? origin : undefined;
}

/**
 * The CORS headers of an answer to `request` (none without an allowed Origin). Called from the
 * app's one onRequest hook (app.ts) rather than a hook of its own: each hook costs every request.
 */
export function corsHeaders(origins: CorsOrigins): (request: FastifyRequest, reply: FastifyReply) => void {
  return (request, reply) => {
    // A list of origins answers per origin: caches must keep the answers apart.
    if (origins !== '*') reply.header('vary', 'Origin');
    const allowed = allowedOrigin(origins, request.headers.origin);
    if (allowed !== undefined) {
      reply.header('access-control-allow-origin', allowed);
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    }
  };
}

/** Preflights: their route. The CORS headers themselves come from corsHeaders, which must run first. */
export function registerCors(app: FastifyInstance): void {
  // A preflight for any path: the browser asks before it sends the real request, which then
  // meets the route (or the 404) as usual. Without an allowed origin the answer has no CORS
  // headers and the browser stops there.
  app.options('/*', async (request, reply) => {
    reply.header('allow', `${METHODS}, OPTIONS`);
    if (reply.hasHeader('access-control-allow-origin') && request.headers['access-control-request-method']) {
      reply.header('access-control-allow-methods', METHODS);
      reply.header('access-control-allow-headers', ALLOWED_HEADERS);
      reply.header('access-control-max-age', PREFLIGHT_MAX_AGE);
    }
    return reply.status(204).send();
  });
}

/** PROPS_CORS_ORIGINS: `*` (the default), or a comma-separated list of origins (`https://app.example`). */
export function parseCorsOrigins(value: string): { origins: CorsOrigins } | { error: string } {
  if (value.trim() === '*') return { origins: '*' };
  const parsed = parseOriginList(value);
  return 'error' in parsed ? { error: `${parsed.error}, or use *` } : parsed;
}

/** A comma-separated list of exact origins (scheme, host and port), as PROPS_CORS_ORIGINS and PROPS_ALLOWED_ORIGINS take. */
export function parseOriginList(value: string): { origins: string[] } | { error: string } {
  const origins: string[] = [];
  for (const raw of value.split(',')) {
    const item = raw.trim();
    let origin: string | undefined;
    try {
      origin = new URL(item).origin;
    } catch {
      origin = undefined;
    }
    if (origin === undefined || origin === 'null' || origin !== item.replace(/\/$/, '')) {
      return { error: `'${item}' is not an origin like https://app.example (scheme, host and port only)` };
    }
    origins.push(origin);
  }
  return { origins };
}
