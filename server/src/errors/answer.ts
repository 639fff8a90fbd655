/**
 * What any error thrown while serving a request is answered with: a status and the
 * `{error, message}` envelope. The REST routes send the envelope as it is; POST /mcp wraps it in
 * a JSON-RPC error. One classification, so both edges refuse the same things the same way.
 */
import { type ErrorCode, type RouteMeta, statusOfError, type Tier } from '@propsfeed/contract';
import type { FastifyError, FastifyRequest } from 'fastify';
import { LimiterUnavailableError } from '../limits/types';
import { ApiError } from './apiError';

/** Most characters of a value the client sent (URL, parameter, header) echoed back in an error message. */
export const MAX_ECHO = 100;

/** `value` as an error message quotes it: whole when short, else its first MAX_ECHO characters and its length. */
export function echo(value: string): string {
  if (value.length <= MAX_ECHO) return value;
  // Never half of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(value.charAt(MAX_ECHO - 1)) ? MAX_ECHO - 1 : MAX_ECHO;
  return `${value.slice(0, end)}… (${value.length.toLocaleString('en-US')} characters)`;
}

/** Longest path parameter (event ids are far shorter); longer ones are refused before routing. */
export const MAX_PARAM_LENGTH = 200;

export interface ErrorEnvelope {
  error: ErrorCode;
  message: string;
  requiredTier?: Tier;
}

export interface ErrorAnswer {
  status: number;
  body: ErrorEnvelope;
  /** Seconds, for the Retry-After header. */
  retryAfter?: number;
  /** Not bad input but a fault of ours: log it. */
  unexpected?: boolean;
  /** The body was refused for not being JSON at all (a JSON-RPC parse error). */
  unparsable?: boolean;
}

/** The one media type request bodies are read as (net/jsonBody.ts); any other is refused with a 415. */
export const BODY_MEDIA_TYPE = 'application/json';

/** What a request with no body, on a route that needs a JSON one, is told: the route's example body. */
export function missingBodyMessage(request: FastifyRequest): string {
  const config = request.routeOptions.config as { tsRestRoute?: { metadata?: unknown } } | undefined;
  const example = (config?.tsRestRoute?.metadata as RouteMeta | undefined)?.example.body;
  return `the request has no body: send a JSON body (Content-Type: ${BODY_MEDIA_TYPE})${example ? `, like ${JSON.stringify(example)}` : ''}`;
}

/** Bytes as a reader sees them: 65,536 bytes (64 KiB). */
function describeBytes(bytes: number): string {
  const kib = bytes / 1024;
  return `${bytes.toLocaleString('en-US')} bytes${Number.isInteger(kib) ? ` (${kib} KiB)` : ''}`;
}

/** What Fastify's refusal says, in a sentence, under the catalog code that names it. */
function describeRefusal(err: FastifyError, request: FastifyRequest): { error: ErrorCode; message: string } {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        error: 'payload_too_large',
        message: `the request body is larger than ${describeBytes(request.routeOptions.bodyLimit)}, the most this server accepts`,
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const type = request.headers['content-type'];
      return {
        error: 'unsupported_media_type',
        message:
          type === undefined
            ? `the request body has no Content-Type: send it as ${BODY_MEDIA_TYPE}`
            : `a request body of Content-Type ${echo(type)} is not accepted: send it as ${BODY_MEDIA_TYPE}`,
      };
    }
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { error: 'invalid_request', message: missingBodyMessage(request) };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { error: 'invalid_request', message: `a path parameter is longer than ${MAX_PARAM_LENGTH} characters` };
    case 'FST_ERR_BAD_URL':
      return {
        error: 'invalid_request',
        message: `the URL path is not valid percent-encoding: ${echo(request.url)}`,
      };
    default:
      return { error: 'invalid_request', message: echo(err.message) };
  }
}

/**
 * Fastify's own refusals (bad JSON, body too large or not JSON, bad URL, over-long path
 * parameter), told apart by their codes: a 4xx envelope in a sentence (its messages for bad
 * paths quote them raw).
 */
export function refusalAnswer(err: FastifyError, request: FastifyRequest): ErrorAnswer {
  const body = describeRefusal(err, request);
  const unparsable = err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY';
  return { status: statusOfError(body.error), body, ...(unparsable ? { unparsable } : {}) };
}

/**
 * The headers an error answer carries: Retry-After when it names a wait, and on a 401 the
 * WWW-Authenticate challenge (RFC 6750) that tells a client to send a bearer key, not to
 * start an OAuth flow. The body says the rest.
 */
export function errorHeaders(answer: ErrorAnswer): Record<string, string | number> {
  const headers: Record<string, string | number> = {};
  if (answer.retryAfter !== undefined) headers['retry-after'] = answer.retryAfter;
  if (answer.status === 401) {
    // RFC 6750: error_description is printable ASCII without `"` or `\`.
    const description = answer.body.message.replace(/[^\x20-\x7e]|["\\]/g, '');
    const error = answer.body.error === 'invalid_api_key' ? ', error="invalid_token"' : '';
    headers['www-authenticate'] = `Bearer realm="propsfeed"${error}, error_description="${description}"`;
  }
  return headers;
}

export function errorAnswer(err: FastifyError, request: FastifyRequest): ErrorAnswer {
  if (err instanceof ApiError) {
    return {
      status: err.status,
      body: err.toBody(),
      ...(err.retryAfter !== undefined ? { retryAfter: err.retryAfter } : {}),
    };
  }
  if (err instanceof LimiterUnavailableError) {
    return {
      status: 503,
      body: { error: 'upstream_unavailable', message: 'rate limiting is unavailable; retry shortly' },
    };
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) return refusalAnswer(err, request);
  return {
    status: 500,
    body: { error: 'internal_error', message: 'internal error; it has been logged' },
    unexpected: true,
  };
}
