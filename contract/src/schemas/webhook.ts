/**
 * Webhooks (pro tier and above): endpoints an integrator registers, the deliveries made to
 * them, and the events they receive. Deliveries follow the Standard Webhooks specification
 * v1.0.0: headers `webhook-id`, `webhook-timestamp`, `webhook-signature`, and a JSON body
 * `{type, timestamp, data}` told apart by `type`.
 */
import { z } from 'zod';
import { MAX_WEBHOOK_DELIVERIES_LIMIT } from '../catalog';
import { AmericanOddsSchema, BookSchema, EventIdSchema, IsoTimeSchema, SportIdSchema, StatKeySchema } from './common';
import { isWellFormed, NO_CONTROL_CHARACTERS, NO_CONTROL_MESSAGE, WELL_FORMED_MESSAGE } from './key';
import { EdgeSchema, ScanRowSchema } from './prop';
import { EntryIdQuery, queryInt } from './query';
import { SettledPropSchema } from './record';
import { StreamGameSchema } from './stream';

/**
 * The events an endpoint subscribes to. `ping` (POST …/test), `webhook.capped` and
 * `webhook.paused` reach every endpoint.
 */
export const WEBHOOK_EVENT_TYPES = [
  'prop.line_moved',
  'prop.edge',
  'game.started',
  'game.final',
  'prop.settled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Every `type` a delivery's body can carry. */
export const WEBHOOK_DELIVERED_TYPES = [...WEBHOOK_EVENT_TYPES, 'ping', 'webhook.capped', 'webhook.paused'] as const;
export type WebhookDeliveredType = (typeof WEBHOOK_DELIVERED_TYPES)[number];

/**
 * The retry schedule of the Standard Webhooks specification, in seconds after the attempt
 * before: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (each with
 * up to ±20% jitter). A delivery still failing after the last is failed.
 */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS = [
  0, 5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400,
] as const;
/** Each attempt waits this long for an answer. */
export const WEBHOOK_TIMEOUT_SECONDS = 15;
/** An endpoint whose deliveries have failed, with no success, for this long is disabled. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 5;
/**
 * The circuit breaker: an endpoint is paused by the service after this many failed attempts in
 * a row (no success between), once the first of them is at least WEBHOOK_PAUSE_MIN_SECONDS old.
 */
export const WEBHOOK_PAUSE_AFTER_FAILURES = 10;
export const WEBHOOK_PAUSE_MIN_SECONDS = 60;
/**
 * A paused endpoint is probed (its oldest pending delivery is sent, one attempt) this long after
 * it was paused; after a failed probe, the wait is as long as the endpoint has been paused
 * (so it doubles), up to WEBHOOK_PROBE_MAX_SECONDS. The first probe that succeeds resumes it.
 */
export const WEBHOOK_PROBE_AFTER_SECONDS = 30;
export const WEBHOOK_PROBE_MAX_SECONDS = 1_800;
/** After a rotation, the previous secret also signs for this long. */
export const WEBHOOK_OLD_SECRET_HOURS = 24;

export const WebhookIdSchema = z
  .string()
  .regex(/^wh_[0-9A-Za-z]{24}$/, 'a webhook id is wh_ followed by 24 letters and digits')
  .describe('Webhook endpoint id (wh_…)');

/** A delivery is one message to one endpoint; its id is the message's `webhook-id`. */
export const WebhookMessageIdSchema = z
  .string()
  .regex(/^msg_[0-9A-Za-z]{24,40}$/, 'a delivery id is msg_ followed by letters and digits')
  .describe('The message id: the `webhook-id` header of every attempt of this delivery');

const WebhookUrlSchema = z
  .string()
  .max(2_000)
  .url()
  .describe(
    'Where deliveries are POSTed: https:// (http:// and loopback only where the operator allows them, PROPS_WEBHOOK_ALLOW_HTTP); never a private, link-local or metadata address',
  );

const DescriptionSchema = z
  .string()
  .max(200)
  .regex(NO_CONTROL_CHARACTERS, NO_CONTROL_MESSAGE)
  .refine(isWellFormed, WELL_FORMED_MESSAGE)
  .describe('A note for you, e.g. "Discord #nba-moves"');

const EventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, 'each event type once')
  .describe(
    'Event types to receive: prop.line_moved, prop.edge, game.started, game.final, prop.settled (ping and webhook.capped always)',
  );

const PlayerFilterSchema = z.string().trim().min(1).max(100).regex(NO_CONTROL_CHARACTERS, NO_CONTROL_MESSAGE);

/** The stream's filter vocabulary: sport, stat, player, book and game; a list means any of them. */
export const WebhookFiltersSchema = z
  .object({
    sports: z
      .array(SportIdSchema)
      .min(1)
      .max(9)
      .optional()
      .describe('Only these sports (each in your tier); every sport your tier has when absent'),
    stats: z.array(StatKeySchema).min(1).max(50).optional().describe('Only these stat keys'),
    players: z
      .array(PlayerFilterSchema)
      .min(1)
      .max(50)
      .optional()
      .describe('Only these players (names, matched ignoring case and accents)'),
    books: z
      .array(BookSchema)
      .min(1)
      .max(2)
      .optional()
      .describe("Only props these books post; a line move is then judged on those books' own lines"),
    games: z.array(EventIdSchema).min(1).max(50).optional().describe('Only these games (either book’s event id)'),
  })
  .strict()
  .describe('WebhookFilters: each field narrows; absent fields do not');
export type WebhookFilters = z.infer<typeof WebhookFiltersSchema>;

export const DEFAULT_LINE_THRESHOLD = 0.5;
export const DEFAULT_ODDS_THRESHOLD = 10;

export const WebhookThresholdsSchema = z
  .object({
    line: z
      .number()
      .min(0.5)
      .max(100)
      .optional()
      .describe(`prop.line_moved when the line moves at least this much (default ${DEFAULT_LINE_THRESHOLD})`),
    odds: z
      .number()
      .int()
      .min(1)
      .max(1_000)
      .optional()
      .describe(
        `…or either side's American odds move at least this many cents (−105 → +105 is 10; default ${DEFAULT_ODDS_THRESHOLD})`,
      ),
  })
  .strict()
  .describe('WebhookThresholds: what counts as a line move, judged from one board to the next');

const MinEdgeSchema = z
  .number()
  .min(-1)
  .max(1)
  .describe('prop.edge when a prop’s edge crosses this (a probability difference, e.g. 0.03); needed for prop.edge');

export const CreateWebhookRequestSchema = z
  .object({
    url: WebhookUrlSchema,
    events: EventsSchema,
    filters: WebhookFiltersSchema.optional(),
    description: DescriptionSchema.optional(),
    thresholds: WebhookThresholdsSchema.optional(),
    minEdge: MinEdgeSchema.optional(),
    entry: EntryIdQuery.optional().describe(
      "prop.edge: the entry type judged against (GET /api/v1/entries); default each book's entry type with the lowest breakeven",
    ),
  })
  .strict()
  .describe('CreateWebhookRequest');
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequestSchema>;

export const UpdateWebhookRequestSchema = z
  .object({
    url: WebhookUrlSchema.optional(),
    events: EventsSchema.optional(),
    filters: WebhookFiltersSchema.nullable().optional().describe('New filters; null removes them'),
    description: DescriptionSchema.nullable().optional(),
    thresholds: WebhookThresholdsSchema.optional(),
    minEdge: MinEdgeSchema.nullable().optional(),
    entry: EntryIdQuery.nullable().optional(),
    status: z
      .enum(['active', 'paused'])
      .optional()
      .describe('paused: no new events, pending deliveries wait; active: resumes (and re-enables a disabled endpoint)'),
  })
  .strict()
  .describe('UpdateWebhookRequest: the fields to change');
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequestSchema>;

export const WEBHOOK_STATUSES = ['active', 'paused', 'disabled'] as const;

export const WebhookSchema = z
  .object({
    id: WebhookIdSchema,
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    filters: WebhookFiltersSchema,
    thresholds: z.object({ line: z.number(), odds: z.number().int() }),
    minEdge: z.number().nullable(),
    entry: z.string().nullable(),
    status: z
      .enum(WEBHOOK_STATUSES)
      .describe(
        'active; paused (by you, or by the service after a run of failed attempts: see pausedReason); disabled (by the service: 410 Gone, or failing for 5 days)',
      ),
    disabledReason: z.string().nullable().describe('Why the service disabled it'),
    pausedReason: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Why the service paused it (its run of failed attempts); null when it is not paused, or paused by you. Events are still stored while the service holds it paused, and sent once it answers again',
      ),
    pausedAt: IsoTimeSchema.nullable().optional().describe('When the service paused it'),
    nextProbeAt: IsoTimeSchema.nullable()
      .optional()
      .describe(
        'Paused by the service: when its oldest pending delivery is next tried; the first success resumes it (so does PATCH {"status": "active"}, or a test ping answered 2xx)',
      ),
    failingSince: IsoTimeSchema.nullable().describe('First failed attempt since the last success'),
    eventsPerMinute: z
      .number()
      .int()
      .describe('Events per minute this endpoint receives at most; past it, one webhook.capped summary'),
    previousSecretExpiresAt: IsoTimeSchema.nullable().describe(
      'After a rotation: until then deliveries carry both signatures',
    ),
    createdAt: IsoTimeSchema,
    updatedAt: IsoTimeSchema,
  })
  .describe('Webhook');
export type Webhook = z.infer<typeof WebhookSchema>;

const SecretSchema = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/=]{32,}$/)
  .describe('The signing secret (whsec_ + base64), shown only now: verify deliveries with it');

export const CreatedWebhookSchema = WebhookSchema.extend({ secret: SecretSchema }).describe('CreatedWebhook');
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

export const WebhookListSchema = z
  .object({
    count: z.number().int().min(0),
    max: z.number().int().min(0).describe('Endpoints your tier allows (pro 5, sharp 20, enterprise 100)'),
    webhooks: z.array(WebhookSchema),
  })
  .describe('WebhookList');
export type WebhookList = z.infer<typeof WebhookListSchema>;

export const DeletedWebhookSchema = z
  .object({ id: WebhookIdSchema, deleted: z.literal(true) })
  .describe('DeletedWebhook: the endpoint and its delivery log are gone');
export type DeletedWebhook = z.infer<typeof DeletedWebhookSchema>;

export const RotatedSecretSchema = z
  .object({
    id: WebhookIdSchema,
    secret: SecretSchema,
    previousSecretExpiresAt: IsoTimeSchema.describe('The previous secret also signs until then'),
  })
  .describe('RotatedSecret');
export type RotatedSecret = z.infer<typeof RotatedSecretSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const WebhookDeliverySchema = z
  .object({
    id: WebhookMessageIdSchema,
    type: z.enum(WEBHOOK_DELIVERED_TYPES),
    status: z
      .enum(WEBHOOK_DELIVERY_STATUSES)
      .describe('pending (due, or waiting to retry), succeeded (a 2xx), failed (retries spent, 410, or disabled)'),
    attempts: z.number().int().min(0),
    createdAt: IsoTimeSchema,
    lastAttemptAt: IsoTimeSchema.nullable(),
    nextAttemptAt: IsoTimeSchema.nullable().describe('When the next attempt is due (pending only)'),
    responseStatus: z.number().int().nullable().describe("The last attempt's HTTP status; null: no answer"),
    latencyMs: z.number().int().nullable().describe("The last attempt's time to an answer"),
    error: z.string().nullable().describe('What went wrong with the last attempt'),
  })
  .describe('WebhookDelivery');
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveriesQuerySchema = z.object({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional().describe('Only deliveries in this state'),
  limit: queryInt(1, MAX_WEBHOOK_DELIVERIES_LIMIT)
    .default(50)
    .describe(`Most deliveries (1 to ${MAX_WEBHOOK_DELIVERIES_LIMIT}, default 50), newest first`),
  before: z
    .string()
    .regex(/^\d{1,16}_msg_[0-9A-Za-z]{24,40}$/, 'before is the nextBefore of a previous answer')
    .optional()
    .describe('The nextBefore of the previous page'),
});

export const WebhookDeliveriesSchema = z
  .object({
    webhookId: WebhookIdSchema,
    count: z.number().int().min(0),
    deliveries: z.array(WebhookDeliverySchema),
    nextBefore: z.string().nullable().describe('Pass as `before` for the next (older) page; null: no more'),
  })
  .describe('WebhookDeliveries');
export type WebhookDeliveries = z.infer<typeof WebhookDeliveriesSchema>;

export const WebhookPathSchema = z.object({ id: WebhookIdSchema });
export const WebhookDeliveryPathSchema = z.object({ id: WebhookIdSchema, deliveryId: WebhookMessageIdSchema });

/** The request body of routes that take none. */
export const EmptyBodySchema = z.object({}).strict().describe('No fields');

// ---- The events: each delivery's body ----

const PreviousQuoteSchema = z.object({
  line: z.number(),
  overOdds: AmericanOddsSchema.optional(),
  underOdds: AmericanOddsSchema.optional(),
});

function eventOf<T extends WebhookDeliveredType, D extends z.ZodTypeAny>(type: T, data: D, description: string) {
  return z
    .object({
      type: z.literal(type),
      timestamp: IsoTimeSchema.describe('When the event happened (the board change, or the send for ping)'),
      data,
    })
    .describe(description);
}

export const PropLineMovedEventSchema = eventOf(
  'prop.line_moved',
  z.object({
    row: ScanRowSchema.describe('The prop as it now stands, as your tier sees it'),
    previous: PreviousQuoteSchema.describe('The merged line and odds on the board before'),
    previousBooks: z
      .array(PreviousQuoteSchema.extend({ source: BookSchema }))
      .describe("Each book's own quote on the board before"),
    lineChange: z.number().describe('row.line − previous.line'),
  }),
  "PropLineMovedEvent: a prop's line, or either side's odds, moved at least the endpoint's thresholds",
);

export const PropEdgeEventSchema = eventOf(
  'prop.edge',
  z.object({
    row: ScanRowSchema.describe('The prop as it now stands, with its probabilities and edge'),
    edge: EdgeSchema.nullable().describe("The edge against the endpoint's entry type (or each book's cheapest)"),
    previousEdge: z.number().nullable().describe('The edge before the change; null: none (new prop, or no estimate)'),
    minEdge: z.number(),
    direction: z.enum(['above', 'below']).describe('above: it rose to minEdge or more; below: it fell under'),
  }),
  "PropEdgeEvent: a prop's edge crossed the endpoint's minEdge",
);

const GameDataSchema = z.object({
  game: StreamGameSchema.describe('The game as it now stands, with its score where a book reports it'),
});

export const GameStartedEventSchema = eventOf('game.started', GameDataSchema, 'GameStartedEvent: a game went live');
export const GameFinalEventSchema = eventOf('game.final', GameDataSchema, 'GameFinalEvent: a game went final');

export const PropSettledEventSchema = eventOf(
  'prop.settled',
  SettledPropSchema,
  "PropSettledEvent: a prop of a final game settled against the player's recorded value, as /props/results shows it",
);

export const PingEventSchema = eventOf(
  'ping',
  z.object({ webhookId: WebhookIdSchema, message: z.string() }),
  'PingEvent: sent by POST /api/v1/webhooks/{id}/test',
);

export const WebhookCappedEventSchema = eventOf(
  'webhook.capped',
  z.object({
    webhookId: WebhookIdSchema,
    limitPerMinute: z.number().int(),
    dropped: z.number().int().min(1).describe('Events not sent in the window'),
    droppedByType: z.record(z.number().int()).describe('Of them, how many of each type'),
    from: IsoTimeSchema,
    to: IsoTimeSchema,
    message: z.string(),
  }),
  "WebhookCappedEvent: more events than the endpoint's per-minute cap happened in a minute; those past the cap were not sent",
);

export const WebhookPausedEventSchema = eventOf(
  'webhook.paused',
  z.object({
    webhookId: WebhookIdSchema.describe('The endpoint paused'),
    url: z.string(),
    reason: z.string(),
    pausedAt: IsoTimeSchema,
    consecutiveFailures: z.number().int().min(1),
    nextProbeAt: IsoTimeSchema.describe('When its oldest pending delivery is next tried'),
    message: z.string(),
  }),
  "WebhookPausedEvent: one of the key's endpoints was paused after a run of failed attempts; sent to the key's other active endpoints at once, and to the paused one when it answers again",
);

export const WebhookEventSchema = z
  .discriminatedUnion('type', [
    PropLineMovedEventSchema,
    PropEdgeEventSchema,
    GameStartedEventSchema,
    GameFinalEventSchema,
    PropSettledEventSchema,
    PingEventSchema,
    WebhookCappedEventSchema,
    WebhookPausedEventSchema,
  ])
  .describe('WebhookEvent: the JSON body of a delivery');
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

/** Each delivered type's body schema, for the OpenAPI document's `webhooks`. */
export const WEBHOOK_EVENT_SCHEMAS = {
  'prop.line_moved': PropLineMovedEventSchema,
  'prop.edge': PropEdgeEventSchema,
  'game.started': GameStartedEventSchema,
  'game.final': GameFinalEventSchema,
  'prop.settled': PropSettledEventSchema,
  ping: PingEventSchema,
  'webhook.capped': WebhookCappedEventSchema,
  'webhook.paused': WebhookPausedEventSchema,
} as const satisfies Record<WebhookDeliveredType, z.ZodTypeAny>;
