import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { FINAL_GAMES_LISTED_HOURS } from './catalog';
import {
  MovementResponseSchema,
  PlayerContextResponseSchema,
  PlayerPropsResponseSchema,
  PropHistoryResponseSchema,
} from './schemas/board';
import { EventIdSchema } from './schemas/common';
import { EntriesResponseSchema } from './schemas/entry';
import { ErrorSchema } from './schemas/error';
import { GamesResponseSchema } from './schemas/game';
import { CreatedKeySchema, CreateKeyRequestSchema, KeyInfoSchema } from './schemas/key';
import { EdgesResponseSchema, PropsResultSchema, ScanResponseSchema } from './schemas/prop';
import {
  EdgesQuerySchema,
  GamePropsQuerySchema,
  GamesQuerySchema,
  MovementQuerySchema,
  PlayerContextQuerySchema,
  PlayerPropsQuerySchema,
  PropHistoryQuerySchema,
  ScanQuerySchema,
} from './schemas/query';
import {
  ResultsQuerySchema,
  ResultsResponseSchema,
  TrackRecordQuerySchema,
  TrackRecordResponseSchema,
} from './schemas/record';
import { SlipEvaluationSchema, SlipRequestSchema } from './schemas/slip';
import { SportsResponseSchema } from './schemas/sport';
import { StreamEventSchema, StreamQuerySchema, StreamTokenRequestSchema, StreamTokenSchema } from './schemas/stream';
import {
  CreatedWebhookSchema,
  CreateWebhookRequestSchema,
  DeletedWebhookSchema,
  EmptyBodySchema,
  RotatedSecretSchema,
  UpdateWebhookRequestSchema,
  WebhookDeliveriesQuerySchema,
  WebhookDeliveriesSchema,
  WebhookDeliveryPathSchema,
  WebhookDeliverySchema,
  WebhookListSchema,
  WebhookPathSchema,
  WebhookSchema,
} from './schemas/webhook';

const c = initContract();

/** Answers every keyed route may give besides its 200. */
const keyed = {
  304: c.noBody(),
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  429: ErrorSchema,
  503: ErrorSchema,
} as const;

/** Answers every route with a request body may give: a body too large, or not JSON. */
const bodyRefusals = { 413: ErrorSchema, 415: ErrorSchema } as const;

/**
 * The API reference's sections (OpenAPI tags), in order, each with what it holds. They mirror
 * the API guide (docs/api.md): one `##` heading per tag listing its routes.
 */
export const API_TAGS = {
  'Games and props': "Sports, today's games and their props, merged across both books.",
  Board:
    "One player's props and context, one prop's line history, the biggest line movers, pick'em entry types with their breakevens, props sorted by edge, slip evaluation, settled results and the service's track record.",
  'Account and keys': 'Your key, tier and usage, and a free key for anyone.',
  Stream:
    'Board changes pushed as they happen (Server-Sent Events), resumable exactly by event id, and short-lived stream tokens for browsers.',
  Webhooks:
    "Signed pushes to your own server (Standard Webhooks v1.0.0): line moves, edges, game starts and finals, settled props. Register endpoints, rotate their secrets, send a test ping, read each endpoint's delivery log and retry a delivery. Pro tier and above; the events themselves are listed under the document's webhooks.",
} as const;
export type ApiTag = keyof typeof API_TAGS;

/**
 * The request the API reference shows for a route, as it is sent (path and query values are
 * strings). `pnpm docs:openapi` records the seeded simulator's answer to it in
 * docs/examples.json, which the reference shows as the response example.
 */
export interface RouteExample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/**
 * Route metadata: `tag` is the reference section the route is listed under; `example` the
 * request the reference shows; `public` routes need no key; `tier` is the lowest tier a route
 * is open to.
 */
export type RouteMeta = {
  tag: ApiTag;
  example: RouteExample;
  public?: boolean;
  tier?: 'free' | 'pro';
  /** The 200 answer is a text/event-stream whose events' data is the 200 schema (served beside ts-rest). */
  eventStream?: boolean;
};

export const contract = c.router(
  {
    sports: {
      method: 'GET',
      path: '/sports',
      summary: 'List sports',
      description: "Lists the sport catalog; each entry's enabled flag says whether the caller's tier allows it.",
      responses: { 200: SportsResponseSchema, ...keyed },
      metadata: { tag: 'Games and props', tier: 'free', example: {} } satisfies RouteMeta,
    },
    games: {
      method: 'GET',
      path: '/games',
      summary: 'List games',
      description: `Games with props posted today for the sport, merged across books, each with its state (pre, live or final): live games first, then pre-game games by start time, then finished games. A finished game is listed for ${FINAL_GAMES_LISTED_HOURS} hours after it ends; \`state=final\` (or \`all\`) lists every finished game the books still post.`,
      query: GamesQuerySchema,
      responses: { 200: GamesResponseSchema, ...keyed },
      metadata: { tag: 'Games and props', tier: 'free', example: { query: { sport: 'nba' } } } satisfies RouteMeta,
    },
    gameProps: {
      method: 'GET',
      path: '/games/:eventId/props',
      summary: 'Props of one game',
      description:
        "Every prop of one game, merged across books. Accepts either book's event id for a merged game. 404 when the event has no props.",
      pathParams: z.object({ eventId: EventIdSchema.describe('An event id from the games list') }),
      query: GamePropsQuerySchema,
      responses: { 200: PropsResultSchema, ...keyed, 404: ErrorSchema },
      metadata: {
        tag: 'Games and props',
        tier: 'free',
        example: { params: { eventId: 'pp_10016885' }, query: { stats: 'points' } },
      } satisfies RouteMeta,
    },
    scan: {
      method: 'GET',
      path: '/props',
      summary: 'Scan props',
      description:
        "Every prop of today's open games for the sport (pre-game and live) flattened to rows; live props first; row count capped by the tier's scanLimit. Props of finished games are left out unless `state=final` or `state=all` asks for them.",
      query: ScanQuerySchema,
      responses: { 200: ScanResponseSchema, ...keyed },
      metadata: {
        tag: 'Games and props',
        tier: 'free',
        example: { query: { sport: 'nba', stat: 'points', limit: '3' } },
      } satisfies RouteMeta,
    },
    me: {
      method: 'GET',
      path: '/me',
      summary: 'Your key, tier and usage',
      description: "The caller's key prefix, tier, limits and usage today (UTC day).",
      responses: {
        200: KeyInfoSchema,
        304: c.noBody(),
        400: ErrorSchema,
        401: ErrorSchema,
        429: ErrorSchema,
        503: ErrorSchema,
      },
      metadata: { tag: 'Account and keys', tier: 'free', example: {} } satisfies RouteMeta,
    },
    playerProps: {
      method: 'GET',
      path: '/props/player',
      summary: 'Props of one player',
      description:
        'Every active prop for one player across the sports the tier allows (or the one named), as scan rows: the same rows the scan gives for that player (open games by default; `state` as on the scan). The name is matched forgivingly among the players with such props; an ambiguous name answers 400 with the candidates; no match answers 200 with no rows.',
      query: PlayerPropsQuerySchema,
      responses: { 200: PlayerPropsResponseSchema, ...keyed },
      metadata: { tag: 'Board', tier: 'free', example: { query: { name: 'shawn watkins' } } } satisfies RouteMeta,
    },
    playerContext: {
      method: 'GET',
      path: '/context/player',
      summary: 'Player context',
      description:
        "Per stat: averages over the season, last 10, last 5, home and away; recent form against today's line; sample size and hit rate.",
      query: PlayerContextQuerySchema,
      responses: { 200: PlayerContextResponseSchema, ...keyed, 404: ErrorSchema },
      metadata: {
        tag: 'Board',
        tier: 'free',
        example: { query: { name: 'Shawn Watkins', stat: 'points' } },
      } satisfies RouteMeta,
    },
    propHistory: {
      method: 'GET',
      path: '/props/history',
      summary: 'Line history of one prop',
      description:
        'Every line and odds change of one prop since it opened, oldest first, per book, with the opening and current line. Pro tier and above.',
      query: PropHistoryQuerySchema,
      responses: { 200: PropHistoryResponseSchema, ...keyed, 404: ErrorSchema },
      metadata: {
        tag: 'Board',
        tier: 'pro',
        example: { query: { eventId: 'pp_10016885', player: 'Corey Riley', stat: 'points' } },
      } satisfies RouteMeta,
    },
    movement: {
      method: 'GET',
      path: '/props/movement',
      summary: 'Biggest line movers',
      description:
        'The biggest line movers board-wide: open line, current line, change and direction, merged and per book, sorted by absolute change. Props of open games (pre-game and live) unless `state` asks for others. Pro tier and above.',
      query: MovementQuerySchema,
      responses: { 200: MovementResponseSchema, ...keyed },
      metadata: { tag: 'Board', tier: 'pro', example: { query: { sport: 'nba', limit: '3' } } } satisfies RouteMeta,
    },
    entries: {
      method: 'GET',
      path: '/entries',
      summary: "Pick'em entry types and breakevens",
      description:
        "Every pick'em entry type in force today (PrizePicks Power and Flex, Underdog standard and insured): payouts by legs won, the day the table took effect, and the per-leg breakeven probability computed from the payouts.",
      responses: { 200: EntriesResponseSchema, ...keyed },
      metadata: { tag: 'Board', tier: 'free', example: {} } satisfies RouteMeta,
    },
    edges: {
      method: 'GET',
      path: '/props/edges',
      summary: 'Props sorted by edge',
      description:
        "The board's props sorted by edge: each row's better side, its estimated chance (given no push), the breakeven of the chosen entry type (default: each book's entry type with the lowest breakeven) and edge = chance − breakeven. The chances are estimates, not promises (see /api/v1/entries for breakevens). Props of open games (pre-game and live) unless `state` asks for others. Pro tier and above.",
      query: EdgesQuerySchema,
      responses: { 200: EdgesResponseSchema, ...keyed },
      metadata: { tag: 'Board', tier: 'pro', example: { query: { sport: 'nba', limit: '3' } } } satisfies RouteMeta,
    },
    evaluateSlip: {
      method: 'POST',
      path: '/slips/evaluate',
      summary: 'Evaluate a pick slip',
      description:
        "2 to 6 legs (player, stat, side; game and book optional) → for each of the book's entry types with that many picks: the chance it pays more than the stake, the expected return per unit and the distribution of legs won. Legs are treated as independent; legs from the same game are flagged as correlated. A prop may be one leg only: the same prop twice, or its over and under, is a 400 naming the leg. Pro tier and above.",
      body: SlipRequestSchema,
      responses: { 200: SlipEvaluationSchema, ...keyed, ...bodyRefusals },
      metadata: {
        tag: 'Board',
        tier: 'pro',
        example: {
          body: {
            legs: [
              { eventId: 'pp_10016885', player: 'Shawn Watkins', stat: 'points', side: 'over' },
              { eventId: 'pp_10016885', player: 'Corey Riley', stat: 'points', side: 'under' },
            ],
          },
        },
      } satisfies RouteMeta,
    },
    results: {
      method: 'GET',
      path: '/props/results',
      summary: 'Settled props of a day',
      description:
        "Every prop that was on the board when its game started, settled once the game went final: per book, its closing line (the last line before the start), the result (over, under or push) against the player's recorded final value, and the chances the service published at the start. A game that never finished is never settled. Free: yesterday and earlier; pro and above: today's finals too.",
      query: ResultsQuerySchema,
      responses: { 200: ResultsResponseSchema, ...keyed },
      metadata: {
        tag: 'Board',
        tier: 'free',
        example: { query: { sport: 'nba', stat: 'points', limit: '3' } },
      } satisfies RouteMeta,
    },
    trackRecord: {
      method: 'GET',
      path: '/props/track-record',
      summary: "The service's track record",
      description:
        'How the chances the service published when each game started have done against the results, from stored history only: count, Brier score, log loss, a calibration table (predicted chance of the over in ten bins against the observed rate) and the record of picks whose edge was at least 0, 2, 5 or 10 points against each entry type (hits, ROI per unit, sample size). Past results do not promise future ones.',
      query: TrackRecordQuerySchema,
      responses: { 200: TrackRecordResponseSchema, ...keyed },
      metadata: { tag: 'Board', tier: 'free', example: { query: { sport: 'nba' } } } satisfies RouteMeta,
    },
    createKey: {
      method: 'POST',
      path: '/keys',
      summary: 'Get a free API key',
      description:
        'Issues a free-tier key to anyone, without payment; at most 3 a minute and 10 a day per client network (its /24, or /64 for IPv6) and a ceiling for everyone together. The key is shown once.',
      body: CreateKeyRequestSchema,
      responses: { 201: CreatedKeySchema, 400: ErrorSchema, ...bodyRefusals, 429: ErrorSchema, 503: ErrorSchema },
      metadata: {
        tag: 'Account and keys',
        public: true,
        example: { body: { email: 'you@example.com', label: 'my laptop' } },
      } satisfies RouteMeta,
    },
    stream: {
      method: 'GET',
      path: '/stream',
      summary: 'Stream board changes',
      description:
        "Server-Sent Events (text/event-stream): a `snapshot` of the matching props and games, then `prop` (a row whose line, odds, state or live value changed, with the previous line and odds), `prop.removed`, `game` and a `heartbeat` every 15 s. Each event's `id` is the board sequence number (`N`, or `N.k` for the k-th event of change N), the same on every replica: reconnect with `Last-Event-ID` to receive exactly the events after it (the same ids and bytes), from memory for the last 15 minutes and from the stored event log beyond (PROPS_STREAM_LOG_HOURS, 2 hours by default, at most 2,000,000 events kept); an id older than that, or a resume that would send more than 100,000 events, gets a snapshot marked `reset` instead. The free tier's stream runs 10 minutes late, like its REST view; tiers without live lines get no props of live games. With `minEdge` (pro and above) a prop is shown while its row's edge meets it: one falling below is sent as `prop.removed` with reason `below_min_edge`. Opening a stream counts one request, and so does an open that is refused; streams per key are capped (free 1, pro 3, sharp 10, enterprise 100; `too_many_streams` past it). A slow reader is ended with an `end` event saying why. Browsers pass `token` from POST /api/v1/stream/tokens instead of the key.",
      query: StreamQuerySchema,
      responses: {
        200: StreamEventSchema,
        400: ErrorSchema,
        401: ErrorSchema,
        403: ErrorSchema,
        429: ErrorSchema,
        503: ErrorSchema,
      },
      metadata: {
        tag: 'Stream',
        tier: 'free',
        eventStream: true,
        example: { query: { sport: 'nba', stats: 'points', player: 'Shawn Watkins' } },
      } satisfies RouteMeta,
    },
    streamToken: {
      method: 'POST',
      path: '/stream/tokens',
      summary: 'Get a stream token',
      description:
        "A short-lived token (5 minutes, one connection) for GET /api/v1/stream?token=…, so a browser's EventSource, which cannot send headers, never puts the key in a URL. The stream it opens is the key's, with the key's tier and caps; it is used up only by a stream that opens, so an open refused for its filters leaves it usable.",
      body: StreamTokenRequestSchema,
      responses: {
        201: StreamTokenSchema,
        400: ErrorSchema,
        401: ErrorSchema,
        ...bodyRefusals,
        429: ErrorSchema,
        503: ErrorSchema,
      },
      metadata: { tag: 'Stream', tier: 'free', example: { body: {} } } satisfies RouteMeta,
    },
    createWebhook: {
      method: 'POST',
      path: '/webhooks',
      summary: 'Register a webhook endpoint',
      description:
        'Registers an endpoint that receives the events it names, narrowed by its filters, as your tier sees the board (its sports, no live props below sharp). The answer carries the signing secret, shown only now. The URL must be https:// and must not resolve to a private, link-local, loopback or metadata address (the operator may allow http:// and loopback for development). Endpoints per key: pro 5, sharp 20, enterprise 100 (`too_many_webhooks` past it). Pro tier and above.',
      body: CreateWebhookRequestSchema,
      responses: { 201: CreatedWebhookSchema, ...keyed, ...bodyRefusals },
      metadata: {
        tag: 'Webhooks',
        tier: 'pro',
        example: {
          body: {
            url: 'https://hooks.example.com/propsfeed',
            events: ['prop.line_moved', 'game.final'],
            filters: { sports: ['nba'], stats: ['points'] },
            description: 'Discord #nba-moves',
          },
        },
      } satisfies RouteMeta,
    },
    listWebhooks: {
      method: 'GET',
      path: '/webhooks',
      summary: 'List your webhook endpoints',
      description: "Your key's webhook endpoints, oldest first, with how many your tier allows. Pro tier and above.",
      responses: { 200: WebhookListSchema, ...keyed },
      metadata: { tag: 'Webhooks', tier: 'pro', example: {} } satisfies RouteMeta,
    },
    getWebhook: {
      method: 'GET',
      path: '/webhooks/:id',
      summary: 'One webhook endpoint',
      description: 'One of your endpoints: its events, filters, state and, when the service disabled it, why.',
      pathParams: WebhookPathSchema,
      responses: { 200: WebhookSchema, ...keyed, 404: ErrorSchema },
      metadata: {
        tag: 'Webhooks',
        tier: 'pro',
        example: { params: { id: 'wh_3xAmp1eHookShownInDocs00' } },
      } satisfies RouteMeta,
    },
    updateWebhook: {
      method: 'PATCH',
      path: '/webhooks/:id',
      summary: 'Change or pause a webhook endpoint',
      description:
        'Changes the fields sent; `status: paused` stops new events (pending deliveries wait), `status: active` resumes it and re-enables an endpoint the service disabled.',
      pathParams: WebhookPathSchema,
      body: UpdateWebhookRequestSchema,
      responses: { 200: WebhookSchema, ...keyed, ...bodyRefusals, 404: ErrorSchema },
      metadata: {
        tag: 'Webhooks',
        tier: 'pro',
        example: { params: { id: 'wh_3xAmp1eHookShownInDocs00' }, body: { status: 'paused' } },
      } satisfies RouteMeta,
    },
    deleteWebhook: {
      method: 'DELETE',
      path: '/webhooks/:id',
      summary: 'Delete a webhook endpoint',
      description: 'Deletes the endpoint and its delivery log; nothing more is sent to it.',
      pathParams: WebhookPathSchema,
      body: c.noBody(),
      responses: { 200: DeletedWebhookSchema, ...keyed, 404: ErrorSchema },
      metadata: {
        tag: 'Webhooks',
        tier: 'pro',
        example: { params: { id: 'wh_3xAmp1eHookShownInDocs00' } },
      } satisfies RouteMeta,
    },
    rotateWebhookSecret: {
      method: 'POST',
      path: '/webhooks/:id/rotate-secret',
      summary: "Rotate an endpoint's secret",
      description:
        'A new signing secret, shown only now. For 24 hours deliveries carry two signatures, by the new secret and the previous one (space-separated in `webhook-signature`), so a receiver can switch without missing one.',
      pathParams: WebhookPathSchema,
      body: EmptyBodySchema.optional(),
      responses: { 200: RotatedSecretSchema, ...keyed, ...bodyRefusals, 404: ErrorSchema },
      metadata: {
        tag: 'Webhooks',
        tier: 'pro',
        example: { params: { id: 'wh_3xAmp1eHookShownInDocs00' } },
      } satisfies RouteMeta,
    },
    testWebhook: {
      method: 'POST',
      path: '/webhooks/:id/test',
      summary: 'Send a test ping',
      description:
        'Sends a `ping` event to the endpoint now and answers once the first attempt is over (at most 15 s): its status, response code, latency and error. A failed ping is retried on the usual schedule like any delivery.',
      pathParams: WebhookPathSchema,
      body: EmptyBodySchema.optional(),
      responses: { 200: WebhookDeliverySchema, ...keyed, ...bodyRefusals, 404: ErrorSchema },
      metadata: {
        tag: 'Webhooks',
        tier: 'pro',
        example: { params: { id: 'wh_3xAmp1eHookShownInDocs00' } },
      } satisfies RouteMeta,
    },
    webhookDeliveries: {
      method: 'GET',
      path: '/webhooks/:id/deliveries',
      summary: "An endpoint's delivery log",
      description:
        "Deliveries to the endpoint, newest first: the message id (its `webhook-id`), event type, status, attempts, and the last attempt's response code, latency and error. Kept 7 days.",
      pathParams: WebhookPathSchema,
      query: WebhookDeliveriesQuerySchema,
      responses: { 200: WebhookDeliveriesSchema, ...keyed, 404: ErrorSchema },
      metadata: {
        tag: 'Webhooks',
        tier: 'pro',
        example: { params: { id: 'wh_3xAmp1eHookShownInDocs00' }, query: { limit: '3' } },
      } satisfies RouteMeta,
    },
    retryWebhookDelivery: {
      method: 'POST',
      path: '/webhooks/:id/deliveries/:deliveryId/retry',
      summary: 'Retry a delivery',
      description:
        'Sends the delivery again now, with the same `webhook-id` and body, whatever its state; a failure is then retried on the usual schedule.',
      pathParams: WebhookDeliveryPathSchema,
      body: EmptyBodySchema.optional(),
      responses: { 202: WebhookDeliverySchema, ...keyed, ...bodyRefusals, 404: ErrorSchema },
      metadata: {
        tag: 'Webhooks',
        tier: 'pro',
        example: { params: { id: 'wh_3xAmp1eHookShownInDocs00', deliveryId: 'msg_3xAmp1eMessageShownInDocs0' } },
      } satisfies RouteMeta,
    },
  },
  { pathPrefix: '/api/v1', strictStatusCodes: true },
);

export type Contract = typeof contract;
