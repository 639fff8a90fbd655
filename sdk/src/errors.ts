/**
 * What the SDK throws: one class per kind of failure a caller handles differently, chosen by
 * one factory from the API's `{error, message}` envelope and the HTTP status.
 */
import type { PropsApiErrorShape } from '@propsfeed/contract';

export interface PropsFeedErrorInit {
  status: number;
  code: string;
  message: string;
  requestId?: string;
  requiredTier?: string;
  retryAfter?: number;
  candidates?: string[];
  choices?: string[];
  cause?: unknown;
}

/** Base class of every error the SDK throws; satisfies the contract's PropsApiErrorShape. */
export class PropsFeedError extends Error implements PropsApiErrorShape {
  /** HTTP status; 0 when no answer arrived (connection and timeout errors). */
  readonly status: number;
  /** The API's machine code (e.g. `invalid_api_key`), or `connection_error` / `timeout`. */
  readonly code: string;
  /** The `x-request-id` of the answer, when the API sent one: quote it when asking for support. */
  readonly requestId?: string;
  /** On 403: the lowest tier that allows the request. */
  readonly requiredTier?: string;
  /** On 429: seconds to wait before retrying. */
  readonly retryAfter?: number;
  /** On an ambiguous player name: the players it could mean. */
  readonly candidates?: string[];
  /** On an ambiguous slip leg: each leg it could mean, ready to paste (`player@team:stat:side`). */
  readonly choices?: string[];

  constructor(init: PropsFeedErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    // Every field above is an own property from the start (ES2022 class fields), so an absent
    // one is undefined whether it is assigned or not.
    this.requestId = init.requestId;
    this.requiredTier = init.requiredTier;
    this.retryAfter = init.retryAfter;
    this.candidates = init.candidates;
    this.choices = init.choices;
  }
}

/**
 * 400, 405, 413, 415: the request itself is wrong (a malformed parameter, an ambiguous name, a
 * method the path does not serve, a body too large or not JSON); `code` says which.
 */
export class InvalidRequestError extends PropsFeedError {}
/** 401: the key is missing, invalid, revoked or inactive. */
export class AuthenticationError extends PropsFeedError {}
/** 403: the key's tier does not allow this sport, route or live lines; see `requiredTier`. */
export class PermissionError extends PropsFeedError {}
/** 404: no such event, or nothing matches. */
export class NotFoundError extends PropsFeedError {}
/** 429: per-minute limit or daily quota reached; see `retryAfter`. */
export class RateLimitError extends PropsFeedError {}
/** 5xx: the API failed or an upstream book is unavailable. */
export class ServerError extends PropsFeedError {}
/** No HTTP answer: refused, reset, DNS failure. `url` is the address that was tried. */
export class ConnectionError extends PropsFeedError {
  readonly url: string;
  constructor(init: Omit<PropsFeedErrorInit, 'status'> & { url: string }) {
    super({ ...init, status: 0 });
    this.url = init.url;
  }
}
/** No answer within `timeoutMs`. A ConnectionError, so one `instanceof` covers both. */
export class TimeoutError extends ConnectionError {}

/** Seconds from a `Retry-After` header: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (header == null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** The statuses of the catalog's codes for a request that is wrong as sent (invalid_request, method_not_allowed, payload_too_large, unsupported_media_type). */
const INVALID_REQUEST_STATUSES = new Set([400, 405, 413, 415]);

function errorClassFor(status: number): typeof PropsFeedError {
  if (INVALID_REQUEST_STATUSES.has(status)) return InvalidRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404) return NotFoundError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return PropsFeedError;
}

function stringField(body: unknown, key: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/** What a caller without a key is told to do: the server's message cannot know the SDK's option names. */
export const MISSING_KEY_HINT =
  'Pass `apiKey` to `new PropsFeed({ apiKey })` or set the PROPS_API_KEY environment variable (a free key: POST /api/v1/keys).';

/** The one factory: maps an error answer (status, parsed body, headers) to its error class. */
export function errorFromResponse(status: number, body: unknown, headers?: Headers): PropsFeedError {
  const ErrorClass = errorClassFor(status);
  const candidates = stringsField(body, 'candidates');
  const choices = stringsField(body, 'choices');
  const code = stringField(body, 'error') ?? (status >= 500 ? 'internal_error' : `http_${status}`);
  const message =
    stringField(body, 'message') ??
    (typeof body === 'string' && body.trim() !== '' ? body.trim().slice(0, 200) : `HTTP ${status}`);
  return new ErrorClass({
    status,
    code,
    message: code === 'missing_api_key' ? `${message} ${MISSING_KEY_HINT}` : message,
    requestId: headers?.get('x-request-id') ?? undefined,
    requiredTier: stringField(body, 'requiredTier'),
    retryAfter: status === 429 ? parseRetryAfter(headers?.get('retry-after')) : undefined,
    candidates,
    choices,
  });
}

/** A list of strings in the error body (candidates, choices), its other entries dropped. */
function stringsField(body: unknown, key: string): string[] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return Array.isArray(value) ? (value.filter((c) => typeof c === 'string') as string[]) : undefined;
}
