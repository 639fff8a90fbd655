/**
 * Context an agent can read without spending a tool call: the sports catalog (which sports the
 * key may use), the pick'em entry tables with their per-leg breakevens, and the track record's
 * summary. Each is the REST answer as JSON, read through the same PropsApi as the tools.
 */
import { type CacheHint, type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { isPropsApiError, type PropsApi } from '@propsfeed/contract';
import { apiErrorText, type UnexpectedErrorHandler } from './result';

export interface ResourceDef {
  name: string;
  uri: string;
  title: string;
  description: string;
  /** How long a client may reuse a read, and whether a shared cache may (only when every key reads the same). */
  cacheHint: CacheHint;
  read: (api: PropsApi) => Promise<object>;
}

const MINUTE = 60_000;

export const RESOURCES: readonly ResourceDef[] = [
  {
    name: 'sports',
    uri: 'propsfeed://sports',
    title: 'Sports catalog',
    description:
      "Every sport propsfeed covers (id, name) and whether this API key's tier may use it (enabled): the ids the tools take.",
    cacheHint: { ttlMs: 10 * MINUTE, cacheScope: 'private' },
    read: (api) => api.sports(),
  },
  {
    name: 'entries',
    uri: 'propsfeed://entries',
    title: "Pick'em entry tables",
    description:
      "PrizePicks' and Underdog's entry types (Power, Flex, Standard...): the payout for each number of legs won and " +
      'the per-leg breakeven, the chance every leg needs for the entry to return its stake on average. find_edges and ' +
      'evaluate_slip judge picks against these.',
    cacheHint: { ttlMs: 10 * MINUTE, cacheScope: 'public' },
    read: (api) => api.entries(),
  },
  {
    name: 'track-record',
    uri: 'propsfeed://track-record',
    title: 'Track record',
    description:
      "How propsfeed's published chances have done against settled results, over the sports this key may use: Brier " +
      'score, log loss, calibration and the hit rate of picks by edge. Past results over the sample shown; they promise nothing.',
    cacheHint: { ttlMs: 5 * MINUTE, cacheScope: 'private' },
    read: (api) => api.trackRecord({}),
  },
];

/** A refused or failed read as a JSON-RPC error: the API's sentence and code, never internals. */
function readError(err: unknown, name: string, onUnexpected: UnexpectedErrorHandler): ProtocolError {
  if (isPropsApiError(err)) {
    return new ProtocolError(-32000, apiErrorText(err), {
      error: err.code,
      ...(err.requiredTier ? { requiredTier: err.requiredTier } : {}),
      ...(err.retryAfter !== undefined ? { retryAfter: err.retryAfter } : {}),
    });
  }
  onUnexpected(err, `resource ${name}`);
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `reading ${name} failed on an internal error (it has been logged); try again later.`,
  );
}

export function registerResources(server: McpServer, api: PropsApi, onUnexpected: UnexpectedErrorHandler): void {
  for (const def of RESOURCES) {
    server.registerResource(
      def.name,
      def.uri,
      { title: def.title, description: def.description, mimeType: 'application/json', cacheHint: def.cacheHint },
      async (uri) => {
        try {
          const value = await def.read(api);
          return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }] };
        } catch (err) {
          throw readError(err, def.name, onUnexpected);
        }
      },
    );
  }
}
