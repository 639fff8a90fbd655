/** PropsFeed: the typed client, one method per route of the contract. */
import {
  type CreatedKey,
  type CreateKeyRequest,
  contract,
  type EdgesParams,
  type GamePropsParams,
  type GamesParams,
  type MovementParams,
  type PlayerContextParams,
  type PlayerPropsParams,
  type PropHistoryParams,
  type PropsApi,
  type ResultsParams,
  type ScanParams,
  type SlipLeg,
  type TrackRecordParams,
} from '@propsfeed/contract';
import { initClient } from '@ts-rest/core';
import { errorFromResponse, PropsFeedError } from './errors';
import { DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_AFTER_SECONDS } from './retry';
import { openStream, type StreamMessage, type StreamParams, type StreamTransport } from './stream';
import { createFetcher, type FetchLike, type TransportOptions } from './transport';
import type { WebhooksApi } from './webhooks';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface PropsFeedOptions {
  /** API key (`pf_...`). Default: the `PROPS_API_KEY` environment variable where `process` exists. */
  apiKey?: string;
  /** Server address, without `/api/v1`. Default: `PROPS_BASE_URL`, else http://127.0.0.1:8787. */
  baseUrl?: string;
  /** Time allowed for each attempt, in milliseconds. Default 30,000. */
  timeoutMs?: number;
  /** Retries of a GET after a connection error, 429 or 5xx. Default 2; 0 turns retries off. */
  maxRetries?: number;
  /** A 429 whose Retry-After is longer than this many seconds is thrown at once, not waited out. Default 60. */
  maxRetryAfterSeconds?: number;
  /** The fetch to use. Default: the global fetch. */
  fetch?: FetchLike;
}

/** Reads an environment variable where there is one (Node, Bun, Deno with process), without importing Node. */
function fromEnv(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.[name];
  return value === undefined || value === '' ? undefined : value;
}

function createRawClient(baseUrl: string, apiKey: string | undefined, transport: TransportOptions) {
  return initClient(contract, {
    baseUrl,
    baseHeaders: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    api: createFetcher(transport),
  });
}

/** The ts-rest client underneath: every route, answering `{status, body, headers}` instead of throwing. */
export type RawClient = ReturnType<typeof createRawClient>;

interface AnyResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

/** The body of the expected success answer; any other answer becomes its PropsFeedError. */
function unwrap<R extends AnyResponse, S extends R['status']>(
  response: R,
  expected: S,
): Extract<R, { status: S }>['body'] {
  if (response.status !== expected) throw errorFromResponse(response.status, response.body, response.headers);
  if (typeof response.body !== 'object' || response.body === null) {
    throw new PropsFeedError({
      status: response.status,
      code: 'invalid_response',
      message: 'The server answered without a JSON body: is the base URL a propsfeed API?',
    });
  }
  return response.body as Extract<R, { status: S }>['body'];
}

/** The webhook methods over the raw client (pro tier and above). */
function webhooksOf(raw: RawClient): WebhooksApi {
  const api: Omit<WebhooksApi, 'retry'> = {
    create: async (params) => unwrap(await raw.createWebhook({ body: params }), 201),
    list: async () => unwrap(await raw.listWebhooks(), 200),
    get: async (id) => unwrap(await raw.getWebhook({ params: { id } }), 200),
    update: async (id, params) => unwrap(await raw.updateWebhook({ params: { id }, body: params }), 200),
    delete: async (id) => unwrap(await raw.deleteWebhook({ params: { id } }), 200),
    rotateSecret: async (id) => unwrap(await raw.rotateWebhookSecret({ params: { id }, body: {} }), 200),
    test: async (id) => unwrap(await raw.testWebhook({ params: { id }, body: {} }), 200),
    deliveries: async (id, params = {}) =>
      unwrap(
        await raw.webhookDeliveries({
          params: { id },
          query: { status: params.status, limit: params.limit, before: params.before },
        }),
        200,
      ),
    retryDelivery: async (id, deliveryId) =>
      unwrap(await raw.retryWebhookDelivery({ params: { id, deliveryId }, body: {} }), 202),
  };
  // The old name, one release more: a call of the new one.
  return { ...api, retry: (id, deliveryId) => api.retryDelivery(id, deliveryId) };
}

export class PropsFeed implements PropsApi {
  readonly baseUrl: string;
  /** The raw ts-rest client for power users: same transport (key, timeout, retries), no throwing. */
  readonly raw: RawClient;
  /**
   * Webhook endpoints and their deliveries (pro tier and above): `create`, `list`, `get`,
   * `update`, `delete`, `rotateSecret`, `test`, `deliveries`, `retryDelivery`. Verify what your server
   * receives with `verifyWebhook`.
   */
  readonly webhooks: WebhooksApi;
  private readonly streamTransport: StreamTransport;

  constructor(options: PropsFeedOptions = {}) {
    this.baseUrl = (options.baseUrl ?? fromEnv('PROPS_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const userFetch = options.fetch;
    // Looked up per call, and called unbound-safe: browsers reject a detached `fetch`.
    const fetch: FetchLike = userFetch ?? ((input, init) => globalThis.fetch(input, init));
    const apiKey = options.apiKey ?? fromEnv('PROPS_API_KEY');
    this.streamTransport = { baseUrl: this.baseUrl, apiKey, fetch };
    this.raw = createRawClient(this.baseUrl, apiKey, {
      fetch,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS,
    });
    this.webhooks = webhooksOf(this.raw);
  }

  /** The sport catalog; `enabled` says whether your tier allows each sport. */
  async sports() {
    return unwrap(await this.raw.sports(), 200);
  }

  /** Today's games of one sport (default nba): live, then pre-game, then recently finished; `state` picks one state or all. */
  async games(params: GamesParams = {}) {
    return unwrap(await this.raw.games({ query: params }), 200);
  }

  /** Every prop of one game; `stats` filters to some stat keys. */
  async gameProps(eventId: string, params: GamePropsParams = {}) {
    const stats = Array.isArray(params.stats) ? params.stats.join(',') : params.stats;
    const response = await this.raw.gameProps({
      params: { eventId: encodeURIComponent(eventId) },
      query: { stats: stats || undefined, sport: params.sport },
    });
    return unwrap(response, 200);
  }

  /** Every prop of today's open games flattened to rows (`state` for others), capped by `limit` and your tier's scanLimit. */
  async scan(params: ScanParams = {}) {
    return unwrap(await this.raw.scan({ query: params }), 200);
  }

  /** Your key's tier, limits and usage today. */
  async me() {
    return unwrap(await this.raw.me(), 200);
  }

  /** Every active prop of one player (the name is matched forgivingly): the scan's rows for that player. */
  async playerProps(params: PlayerPropsParams) {
    return unwrap(await this.raw.playerProps({ query: params }), 200);
  }

  /** Averages, recent form and hit rates of one player, per stat. */
  async playerContext(params: PlayerContextParams) {
    return unwrap(await this.raw.playerContext({ query: params }), 200);
  }

  /** Every line and odds change of one prop since it opened (pro tier and above). */
  async propHistory(params: PropHistoryParams) {
    return unwrap(await this.raw.propHistory({ query: params }), 200);
  }

  /** The biggest line movers board-wide (pro tier and above). */
  async movement(params: MovementParams = {}) {
    const since = params.since instanceof Date ? params.since.toISOString() : params.since;
    return unwrap(await this.raw.movement({ query: { ...params, since } }), 200);
  }

  /** @deprecated use `movement` (named after its route, GET /props/movement); `movers` goes in the next release. */
  movers(params: MovementParams = {}) {
    return this.movement(params);
  }

  /** Every pick'em entry type in force, with payouts and the per-leg breakeven computed from them. */
  async entries() {
    return unwrap(await this.raw.entries(), 200);
  }

  /** The board sorted by edge: each row's better side against an entry type's breakeven (pro tier and above). */
  async edges(params: EdgesParams = {}) {
    return unwrap(await this.raw.edges({ query: params }), 200);
  }

  /** A slip of 2 to 6 legs against each entry type of its book: win chance, expected return, hits (pro tier and above). */
  async evaluateSlip(legs: SlipLeg[]) {
    return unwrap(await this.raw.evaluateSlip({ body: { legs } }), 200);
  }

  /**
   * The board's changes as they happen: `for await (const event of client.stream({ sport: 'nba' }))`.
   * A `snapshot` first, then `prop`, `prop.removed`, `game` and `heartbeat` events; a dropped
   * connection is resumed after its last event id (with backoff), missing and repeating nothing.
   * Stop it with `signal` or by leaving the loop.
   */
  stream(params: StreamParams = {}): AsyncGenerator<StreamMessage> {
    return openStream(this.streamTransport, params);
  }

  /** A token that opens one stream within 5 minutes, for a browser's EventSource: `…/api/v1/stream?token=`. */
  async streamToken() {
    return unwrap(await this.raw.streamToken({ body: {} }), 201);
  }

  /** Settled props of a UTC day: closing lines, results and the chances published at lock (free: yesterday and earlier). */
  async results(params: ResultsParams = {}) {
    return unwrap(await this.raw.results({ query: params }), 200);
  }

  /** The service's track record: Brier score, log loss, calibration and edge picks, from stored history. */
  async trackRecord(params: TrackRecordParams = {}) {
    return unwrap(await this.raw.trackRecord({ query: params }), 200);
  }

  /** Issues a free-tier key (no API key needed). The key is shown only once. Never retried. */
  async createKey(params: CreateKeyRequest): Promise<CreatedKey> {
    return unwrap(await this.raw.createKey({ body: { email: params.email, label: params.label } }), 201);
  }
}
