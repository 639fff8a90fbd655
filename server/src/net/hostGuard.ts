/**
 * The guard against DNS rebinding on /mcp. A web page on evil.example whose name its owner
 * re-points at 127.0.0.1 reaches a `props serve` on the visitor's machine through the
 * visitor's browser, as its own origin: its requests arrive on loopback carrying
 * `Host: evil.example:8787` (and, on a POST, `Origin: http://evil.example:8787`). So a request
 * whose Host or Origin names neither loopback nor a name the operator allowed is refused.
 *
 * Allowed: Host names loopback (`localhost`, `127.0.0.1`, `[::1]`, any port) or a name in
 * PROPS_ALLOWED_HOSTS; Origin absent (clients other than browsers send none), or its host is
 * one of those, or it is an origin listed in PROPS_ALLOWED_ORIGINS or PROPS_CORS_ORIGINS.
 */
import type { FastifyRequest } from 'fastify';
import type { CorsOrigins } from '../cors';
import { echo } from '../errors/answer';
import { ApiError } from '../errors/apiError';

/** The names every machine gives itself; a browser never resolves them to someone else's address. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export interface HostPolicy {
  /** Host names (no port) a request may address: loopback and PROPS_ALLOWED_HOSTS. */
  hosts: ReadonlySet<string>;
  /** Exact origins beyond those of the allowed hosts: PROPS_ALLOWED_ORIGINS and a listed PROPS_CORS_ORIGINS. */
  origins: ReadonlySet<string>;
}

export interface HostPolicyOptions {
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  /** A list of CORS origins is a list of pages the operator trusts; `*` (any page) adds none. */
  corsOrigins?: CorsOrigins;
}

export function hostPolicy(opts: HostPolicyOptions = {}): HostPolicy {
  const cors = opts.corsOrigins === undefined || opts.corsOrigins === '*' ? [] : opts.corsOrigins;
  return {
    hosts: new Set([...LOOPBACK_HOSTS, ...(opts.allowedHosts ?? [])]),
    origins: new Set([...(opts.allowedOrigins ?? []), ...cors]),
  };
}

/** The host name of a Host header value (`Example.com:8787` → `example.com`); undefined when it is not one. */
function hostnameOf(host: string): string | undefined {
  // Anything but a host and a port (a path, credentials, spaces) is not a Host header.
  if (/[\s/?#@\\]/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** Whether a Host value (`name[:port]`) names a host this server answers: loopback or PROPS_ALLOWED_HOSTS. */
export function isAllowedHost(policy: HostPolicy, host: string | undefined): boolean {
  const hostname = host === undefined ? undefined : hostnameOf(host);
  return hostname !== undefined && policy.hosts.has(hostname);
}

/** A header as a refusal quotes it: in JSON quotes, at most MAX_ECHO characters of it. */
const quoted = (value: string) => JSON.stringify(echo(value));

/** Why the Host and Origin of a request are refused, as a sentence; undefined when they may pass. */
export function hostRefusal(
  policy: HostPolicy,
  host: string | undefined,
  origin: string | undefined,
): string | undefined {
  if (!isAllowedHost(policy, host)) {
    const named = host === undefined ? 'a request without a Host header' : `Host ${quoted(host)}`;
    return (
      `${named} is not allowed: this server answers MCP for loopback names (localhost, 127.0.0.1, [::1]) and the ` +
      'names in PROPS_ALLOWED_HOSTS, to keep web pages from reaching it by DNS rebinding'
    );
  }
  if (origin === undefined || policy.origins.has(origin)) return undefined;
  let originHost: string | undefined;
  try {
    const url = new URL(origin);
    originHost = url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : undefined;
  } catch {
    originHost = undefined;
  }
  if (originHost !== undefined && policy.hosts.has(originHost)) return undefined;
  return (
    `Origin ${quoted(origin)} is not allowed: MCP answers pages from loopback, from the names in PROPS_ALLOWED_HOSTS ` +
    'and from the origins in PROPS_ALLOWED_ORIGINS or PROPS_CORS_ORIGINS, to keep other web pages from driving it'
  );
}

/** A preHandler refusing what hostRefusal refuses, with a 403 `host_not_allowed`. */
export function createHostGuard(policy: HostPolicy): (request: FastifyRequest) => Promise<void> {
  return async function hostGuard(request) {
    const origin = request.headers.origin;
    const refusal = hostRefusal(policy, request.headers.host, origin);
    if (refusal !== undefined) throw new ApiError('host_not_allowed', refusal);
  };
}

/** PROPS_ALLOWED_HOSTS: comma-separated host names (no scheme, port or path), e.g. `api.example.com,10.0.0.5`. */
export function parseAllowedHosts(value: string): { hosts: string[] } | { error: string } {
  const hosts: string[] = [];
  for (const raw of value.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const bracketed = item.startsWith('[') && item.endsWith(']');
    const hostname = !bracketed && item.includes(':') ? undefined : hostnameOf(item);
    if (hostname === undefined) {
      return { error: `'${item}' is not a host name like api.example.com (no scheme, port or path)` };
    }
    hosts.push(hostname);
  }
  return { hosts };
}
