/**
 * Every keyed route of the contract with a request a sharp key may make: the auth, tier and
 * limit checks below run against each of them (unkey's common tests).
 */
import { contract, type RouteMeta } from '@propsfeed/contract';

export interface KeyedRoute {
  name: keyof typeof contract;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  /** The JSON body of a POST route's test request. */
  payload?: unknown;
  tier: 'free' | 'pro';
}

const NO_WEBHOOK = `wh_${'0'.repeat(24)}`;

/** Bodies of the POST and PATCH routes' test requests. */
const PAYLOADS: Record<string, unknown> = {
  streamToken: {},
  // A documentation address: refused (400) before anything is sent or stored.
  createWebhook: { url: 'https://203.0.113.9/hooks', events: ['game.final'] },
  updateWebhook: { status: 'paused' },
  rotateWebhookSecret: {},
  testWebhook: {},
  retryWebhookDelivery: {},
  evaluateSlip: {
    legs: [
      { player: 'Nikola Jokic', stat: 'points', side: 'over' },
      { player: 'Nikola Jokic', stat: 'pra', side: 'under' },
    ],
  },
};

const URLS: Record<string, string> = {
  sports: '/api/v1/sports',
  games: '/api/v1/games?sport=nba',
  gameProps: '/api/v1/games/pp_1002/props',
  scan: '/api/v1/props?limit=5',
  me: '/api/v1/me',
  playerProps: '/api/v1/props/player?name=Jokic',
  playerContext: '/api/v1/context/player?name=Jokic&sport=nba',
  propHistory: '/api/v1/props/history?eventId=pp_1002&player=Nikola%20Jokic&stat=pra',
  movement: '/api/v1/props/movement?sport=nba',
  entries: '/api/v1/entries',
  edges: '/api/v1/props/edges?sport=nba&limit=5',
  evaluateSlip: '/api/v1/slips/evaluate',
  streamToken: '/api/v1/stream/tokens',
  results: '/api/v1/props/results?date=2026-11-20',
  trackRecord: '/api/v1/props/track-record?sport=nba',
  // No such webhook: 404 for every key, after the guard has checked the key, tier and limits.
  createWebhook: '/api/v1/webhooks',
  listWebhooks: '/api/v1/webhooks',
  getWebhook: `/api/v1/webhooks/${NO_WEBHOOK}`,
  updateWebhook: `/api/v1/webhooks/${NO_WEBHOOK}`,
  deleteWebhook: `/api/v1/webhooks/${NO_WEBHOOK}`,
  rotateWebhookSecret: `/api/v1/webhooks/${NO_WEBHOOK}/rotate-secret`,
  testWebhook: `/api/v1/webhooks/${NO_WEBHOOK}/test`,
  webhookDeliveries: `/api/v1/webhooks/${NO_WEBHOOK}/deliveries`,
  retryWebhookDelivery: `/api/v1/webhooks/${NO_WEBHOOK}/deliveries/msg_${'0'.repeat(32)}/retry`,
};

/**
 * Event streams are left out: their answer never ends, so `inject` cannot wait for it. The
 * stream's key, tier and limit checks are tested over real connections (server/test/stream).
 */
export const KEYED_ROUTES: KeyedRoute[] = Object.entries(contract)
  .filter(([, route]) => {
    const meta = (route.metadata ?? {}) as RouteMeta;
    return !meta.public && !meta.eventStream;
  })
  .map(([name, route]) => {
    const url = URLS[name];
    if (!url) throw new Error(`keyed route ${name} has no test request: add one to keyed.common.ts`);
    const payload = PAYLOADS[name];
    return {
      name: name as keyof typeof contract,
      method: route.method as KeyedRoute['method'],
      url,
      ...(payload === undefined ? {} : { payload }),
      tier: ((route.metadata ?? {}) as RouteMeta).tier ?? 'free',
    };
  });

/** The route's test request, with this Authorization header (none when undefined). */
export function routeRequest(route: KeyedRoute, authorization?: string) {
  return {
    method: route.method,
    url: route.url,
    ...(route.payload === undefined ? {} : { payload: route.payload as Record<string, unknown> }),
    headers: authorization === undefined ? {} : { authorization },
  };
}
