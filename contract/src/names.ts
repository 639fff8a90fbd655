/**
 * Every route's names, by its path under /api/v1 (prefixed with the method where one path
 * serves several): the contract key, the server's route file and query, the PropsApi and SDK
 * method, the `props` CLI command and the MCP tools that answer from it. Searching for any one
 * of them here finds the others. Checked against the code by test/names.test.ts.
 */
import type { Contract } from './router';
import type { WebhookDeliveredType } from './schemas/webhook';

export interface RouteNames {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The key in `contract` (and the file name under server/src/routes/). */
  contractKey: keyof Contract;
  /** The query function, as `file#function` under server/src/queries/ (null: the route does its own work). */
  query: string | null;
  /** The PropsApi method (server/src/queries/local.ts implements it in-process); null when not in PropsApi. */
  propsApi: string | null;
  /** The SDK's PropsFeed method (`webhooks.create`: a method of the client's `webhooks`). */
  sdk: string;
  /** The `props` command (cli/src/commands/<command>.ts); null when the CLI has none. */
  cli: string | null;
  /** The MCP tools calling it (server/src/mcp/tools/<tool in camelCase>.ts). */
  mcp: readonly string[];
}

export const ROUTE_NAMES = {
  '/sports': {
    method: 'GET',
    contractKey: 'sports',
    query: 'sports#sportsQuery',
    propsApi: 'sports',
    sdk: 'sports',
    cli: 'sports',
    mcp: ['list_sports', 'find_game'],
  },
  '/games': {
    method: 'GET',
    contractKey: 'games',
    query: 'games#gamesQuery',
    propsApi: 'games',
    sdk: 'games',
    cli: 'games',
    mcp: ['list_games', 'find_game'],
  },
  '/games/:eventId/props': {
    method: 'GET',
    contractKey: 'gameProps',
    query: 'gameProps#gamePropsQuery',
    propsApi: 'gameProps',
    sdk: 'gameProps',
    cli: 'game',
    mcp: ['get_game_props'],
  },
  '/props': {
    method: 'GET',
    contractKey: 'scan',
    query: 'scan#scanQuery',
    propsApi: 'scan',
    sdk: 'scan',
    cli: 'scan',
    mcp: ['scan_props'],
  },
  '/me': {
    method: 'GET',
    contractKey: 'me',
    query: 'me#meQuery',
    propsApi: 'me',
    sdk: 'me',
    cli: 'me',
    mcp: [],
  },
  '/props/player': {
    method: 'GET',
    contractKey: 'playerProps',
    query: 'playerProps#playerPropsQuery',
    propsApi: 'playerProps',
    sdk: 'playerProps',
    cli: 'player',
    mcp: ['find_player_props'],
  },
  '/context/player': {
    method: 'GET',
    contractKey: 'playerContext',
    query: 'playerContext#playerContextQuery',
    propsApi: 'playerContext',
    sdk: 'playerContext',
    cli: 'context',
    mcp: ['get_player_context'],
  },
  '/props/history': {
    method: 'GET',
    contractKey: 'propHistory',
    query: 'propHistory#propHistoryQuery',
    propsApi: 'propHistory',
    sdk: 'propHistory',
    cli: 'history',
    mcp: ['get_prop_history'],
  },
  '/props/movement': {
    method: 'GET',
    contractKey: 'movement',
    query: 'movement#movementQuery',
    propsApi: 'movers',
    sdk: 'movers',
    cli: 'movers',
    mcp: ['scan_movers'],
  },
  '/entries': {
    method: 'GET',
    contractKey: 'entries',
    query: 'entries#entriesQuery',
    propsApi: 'entries',
    sdk: 'entries',
    cli: 'entries',
    mcp: [],
  },
  '/props/edges': {
    method: 'GET',
    contractKey: 'edges',
    query: 'edges#edgesQuery',
    propsApi: 'edges',
    sdk: 'edges',
    cli: 'edges',
    mcp: ['find_edges'],
  },
  '/slips/evaluate': {
    method: 'POST',
    contractKey: 'evaluateSlip',
    query: 'evaluateSlip#evaluateSlipQuery',
    propsApi: 'evaluateSlip',
    sdk: 'evaluateSlip',
    cli: 'slip',
    mcp: ['evaluate_slip'],
  },
  '/props/results': {
    method: 'GET',
    contractKey: 'results',
    query: 'results#resultsQuery',
    propsApi: 'results',
    sdk: 'results',
    cli: 'results',
    mcp: [],
  },
  '/props/track-record': {
    method: 'GET',
    contractKey: 'trackRecord',
    query: 'trackRecord#trackRecordQuery',
    propsApi: 'trackRecord',
    sdk: 'trackRecord',
    cli: 'record',
    mcp: ['get_track_record'],
  },
  '/keys': {
    method: 'POST',
    contractKey: 'createKey',
    query: null,
    propsApi: null,
    sdk: 'createKey',
    cli: null,
    mcp: [],
  },
  '/stream': {
    method: 'GET',
    contractKey: 'stream',
    query: null,
    propsApi: null,
    sdk: 'stream',
    cli: 'watch',
    mcp: [],
  },
  '/stream/tokens': {
    method: 'POST',
    contractKey: 'streamToken',
    query: null,
    propsApi: null,
    sdk: 'streamToken',
    cli: null,
    mcp: [],
  },
  '/webhooks': {
    method: 'POST',
    contractKey: 'createWebhook',
    query: null,
    propsApi: null,
    sdk: 'webhooks.create',
    cli: 'webhooks',
    mcp: [],
  },
  'GET /webhooks': {
    method: 'GET',
    contractKey: 'listWebhooks',
    query: null,
    propsApi: null,
    sdk: 'webhooks.list',
    cli: 'webhooks',
    mcp: [],
  },
  '/webhooks/:id': {
    method: 'GET',
    contractKey: 'getWebhook',
    query: null,
    propsApi: null,
    sdk: 'webhooks.get',
    cli: 'webhooks',
    mcp: [],
  },
  'PATCH /webhooks/:id': {
    method: 'PATCH',
    contractKey: 'updateWebhook',
    query: null,
    propsApi: null,
    sdk: 'webhooks.update',
    cli: 'webhooks',
    mcp: [],
  },
  'DELETE /webhooks/:id': {
    method: 'DELETE',
    contractKey: 'deleteWebhook',
    query: null,
    propsApi: null,
    sdk: 'webhooks.delete',
    cli: 'webhooks',
    mcp: [],
  },
  '/webhooks/:id/rotate-secret': {
    method: 'POST',
    contractKey: 'rotateWebhookSecret',
    query: null,
    propsApi: null,
    sdk: 'webhooks.rotateSecret',
    cli: 'webhooks',
    mcp: [],
  },
  '/webhooks/:id/test': {
    method: 'POST',
    contractKey: 'testWebhook',
    query: null,
    propsApi: null,
    sdk: 'webhooks.test',
    cli: 'webhooks',
    mcp: [],
  },
  '/webhooks/:id/deliveries': {
    method: 'GET',
    contractKey: 'webhookDeliveries',
    query: null,
    propsApi: null,
    sdk: 'webhooks.deliveries',
    cli: 'webhooks',
    mcp: [],
  },
  '/webhooks/:id/deliveries/:deliveryId/retry': {
    method: 'POST',
    contractKey: 'retryWebhookDelivery',
    query: null,
    propsApi: null,
    sdk: 'webhooks.retry',
    cli: 'webhooks',
    mcp: [],
  },
} as const satisfies Record<string, RouteNames>;

/** The path of a ROUTE_NAMES key (`'PATCH /webhooks/:id'` → `'/webhooks/:id'`). */
export function pathOfRouteName(key: string): string {
  return key.replace(/^(GET|POST|PATCH|DELETE) /, '');
}

export interface WebhookEventNames {
  /** The body's schema in contract/src/schemas/webhook.ts. */
  schema: string;
  /** Where the server makes it: `file#function` under server/src/webhooks/. */
  producer: string;
  /** What an endpoint subscribes with (`events`); false: every endpoint receives it. */
  subscribable: boolean;
}

/** Each webhook event type's names: its body schema and the server function that makes it. */
export const WEBHOOK_EVENT_NAMES = {
  'prop.line_moved': { schema: 'PropLineMovedEventSchema', producer: 'events#lineMovedEvent', subscribable: true },
  'prop.edge': { schema: 'PropEdgeEventSchema', producer: 'events#edgeEvent', subscribable: true },
  'game.started': { schema: 'GameStartedEventSchema', producer: 'events#gameEvent', subscribable: true },
  'game.final': { schema: 'GameFinalEventSchema', producer: 'events#gameEvent', subscribable: true },
  'prop.settled': { schema: 'PropSettledEventSchema', producer: 'settled#settledEvents', subscribable: true },
  ping: { schema: 'PingEventSchema', producer: 'service#pingEvent', subscribable: false },
  'webhook.capped': { schema: 'WebhookCappedEventSchema', producer: 'caps#cappedEvent', subscribable: false },
  'webhook.paused': { schema: 'WebhookPausedEventSchema', producer: 'attempt#pausedEvent', subscribable: false },
} as const satisfies Record<WebhookDeliveredType, WebhookEventNames>;
