/**
 * GET /api/v1/stream: the board's changes as Server-Sent Events. Each event's `data:` is one
 * of these JSON objects (told apart by `type`); its SSE `id:` is the board sequence number
 * (`N` for a snapshot, `N.k` for the k-th event of board change N), the same on every replica.
 */
import { z } from 'zod';
import { AmericanOddsSchema, EventIdSchema, IsoTimeSchema, SportIdSchema } from './common';
import { GameSchema } from './game';
import { ScanRowSchema } from './prop';
import { MinEdgeQuery, PlayerNameQuery, StatsListQuery } from './query';

/** At most this many sports in one stream's filter (the catalog's, each once). */
const SportsListQuery = z
  .string()
  .max(200)
  .regex(/^[a-z0-9_]+(,[a-z0-9_]+)*$/, 'sport is a comma-separated list of sport ids')
  .describe('Comma-separated sport ids, e.g. nba,mlb; every sport the tier allows when absent');

/** An event id as the stream gives it: `N` or `N.k`. */
export const StreamEventIdSchema = z
  .string()
  .regex(/^\d{1,16}(\.\d{1,9})?$/, 'an event id is the board sequence number N or N.k, as the stream sent it')
  .describe(
    'The id of the last event received (`N` or `N.k`); the stream resumes right after it: from memory for 15 minutes, from the stored event log for PROPS_STREAM_LOG_HOURS (2 by default), else with a reset snapshot',
  );

export const StreamQuerySchema = z.object({
  sport: SportsListQuery.optional(),
  stats: StatsListQuery.optional(),
  eventId: EventIdSchema.optional().describe('Only this game (either book’s id)'),
  player: PlayerNameQuery.optional().describe('Only this player (name, matched ignoring case and accents)'),
  minEdge: MinEdgeQuery.optional().describe(
    "Only props whose row's edge is at least this (a probability difference, e.g. 0.02; tiers with edges, pro and above). " +
      'A prop the stream showed whose edge falls below it is sent as `prop.removed` with reason `below_min_edge`, ' +
      'one that rises to it as `prop`. An edge is judged when the prop itself changes (line, odds, state, live value): ' +
      'when only the game logs behind its probability or the day’s entry types move, the stream sends nothing for it ' +
      'until its next change',
  ),
  lastEventId: StreamEventIdSchema.optional().describe(
    'Resume after this event id; the Last-Event-ID header does the same and wins when both are sent',
  ),
  token: z
    .string()
    .regex(/^st_[A-Za-z0-9_-]{16,64}$/, 'a stream token is st_ followed by the token POST /api/v1/stream/tokens gave')
    .optional()
    .describe('A stream token (POST /api/v1/stream/tokens) instead of the Authorization header, for EventSource'),
});
export type StreamQuery = z.infer<typeof StreamQuerySchema>;

/** A game as the stream shows it: the same Game as `/games` answers, with its state and clock. */
export const StreamGameSchema = GameSchema.describe('StreamGame');
export type StreamGame = z.infer<typeof StreamGameSchema>;

const PreviousQuoteSchema = z
  .object({
    line: z.number(),
    overOdds: AmericanOddsSchema.optional(),
    underOdds: AmericanOddsSchema.optional(),
  })
  .describe('The line and odds before this change');

export const StreamSnapshotEventSchema = z
  .object({
    type: z.literal('snapshot'),
    reset: z
      .boolean()
      .describe(
        'True when the id resumed from is older than the service keeps (15 minutes in memory, then the stored event log: 2 hours by default), or its gap holds more than 100,000 events: start over from this snapshot',
      ),
    boardVersion: z.number().int().describe('The board sequence number this snapshot stands at (its event id)'),
    fetchedAt: IsoTimeSchema.nullable(),
    delayed: z.boolean().describe('True when the stream runs on a delay (free tier)'),
    games: z.array(StreamGameSchema),
    rows: z.array(ScanRowSchema).describe('Every matching prop as it stands'),
  })
  .describe('StreamSnapshotEvent');

export const StreamPropEventSchema = z
  .object({
    type: z.literal('prop'),
    row: ScanRowSchema.describe('The prop as it now stands'),
    previous: PreviousQuoteSchema.nullable().describe('The line and odds before; null for a new prop'),
  })
  .describe('StreamPropEvent');

/** Why a prop left the stream: pulled by the books (or its game left the board), or its edge fell below `minEdge`. */
export const STREAM_REMOVED_REASONS = ['pulled', 'below_min_edge'] as const;

export const StreamPropRemovedEventSchema = z
  .object({
    type: z.literal('prop.removed'),
    eventId: EventIdSchema,
    sport: SportIdSchema,
    player: z.string(),
    stat: z.string(),
    reason: z
      .enum(STREAM_REMOVED_REASONS)
      .optional()
      .describe(
        '`pulled`: the books pulled it or its game left the board; `below_min_edge`: still on the board, its edge is now below the stream’s minEdge. Absent means pulled',
      ),
  })
  .describe('StreamPropRemovedEvent: the prop left the stream: pulled, or (with minEdge) below the edge asked for');

export const StreamGameEventSchema = z
  .object({ type: z.literal('game'), game: StreamGameSchema })
  .describe('StreamGameEvent: a game appeared, or its state or clock changed');

export const StreamHeartbeatEventSchema = z
  .object({ type: z.literal('heartbeat'), at: IsoTimeSchema })
  .describe('StreamHeartbeatEvent: sent every 15 s while nothing else is');

export const STREAM_END_REASONS = ['slow_consumer', 'key_revoked', 'server_closing'] as const;
export const StreamEndEventSchema = z
  .object({
    type: z.literal('end'),
    reason: z.enum(STREAM_END_REASONS),
    message: z.string(),
  })
  .describe('StreamEndEvent: the last event before the server closes the stream; resume by id where it allows');

export const StreamEventSchema = z
  .discriminatedUnion('type', [
    StreamSnapshotEventSchema,
    StreamPropEventSchema,
    StreamPropRemovedEventSchema,
    StreamGameEventSchema,
    StreamHeartbeatEventSchema,
    StreamEndEventSchema,
  ])
  .describe('StreamEvent: the JSON of one `data:` line');
export type StreamEvent = z.infer<typeof StreamEventSchema>;
export type StreamEventType = StreamEvent['type'];

/** How long a stream token may wait before it is used; it opens one stream. */
export const STREAM_TOKEN_TTL_SECONDS = 300;

export const StreamTokenRequestSchema = z.object({}).strict().describe('StreamTokenRequest: no fields');

export const StreamTokenSchema = z
  .object({
    token: z.string().describe('Pass as `token` on GET /api/v1/stream; valid for one connection'),
    expiresAt: IsoTimeSchema.describe('Unused after this, the token is refused'),
    expiresInSeconds: z.number().int().min(0),
  })
  .describe('StreamToken');
export type StreamToken = z.infer<typeof StreamTokenSchema>;
