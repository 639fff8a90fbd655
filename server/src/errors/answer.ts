/**
 * What any error thrown while serving a request is answered with: a status and the
 * `{error, message}` envelope. The REST routes send the envelope as it is; POST /mcp wraps it in
 * a JSON-RPC error. One classification, so both edges refuse the same things the same way.
 */
import type { ErrorCode, Tier } from '@propsfeed/contract';
import type { FastifyError, FastifyRequest } from 'fastify';
import { LimiterUnavailableError } from '../limits/types';
import { ApiError } from './apiError';

/** Longest part of a request (URL, parser message) echoed back in an error message. */
export const MAX_ECHO = 200;
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

/**
 * Fastify's own refusals (bad JSON, body too large, bad media type, bad URL, over-long path
 * parameter): always a 400, in a sentence (its messages for bad paths quote them raw).
 */
export function refusalAnswer(err: FastifyError, request: FastifyRequest): ErrorAnswer {
  const message =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `a path parameter is longer than ${MAX_PARAM_LENGTH} characters`
      : err.code === 'FST_ERR_BAD_URL'
        ? `the URL path is not valid percent-encoding: ${request.url.slice(0, MAX_ECHO)}`
        : err.message.slice(0, MAX_ECHO);
  const unparsable = err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY';
  return { status: 400, body: { error: 'invalid_request', message }, ...(unparsable ? { unparsable } : {}) };
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
