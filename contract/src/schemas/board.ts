import { z } from 'zod';
import { AmericanOddsSchema, BookSchema, EventIdSchema, IsoTimeSchema, SportIdSchema, StatKeySchema } from './common';
import { ProjectionSchema, PropGameShape, ScanRowSchema } from './prop';

/** GET /props/player: every active prop of one player, as scan rows. */
export const PlayerPropsResponseSchema = z
  .object({
    query: z.string().describe('The name as asked'),
    player: z.string().nullable().describe('The player the name matched; null when none did'),
    count: z.number().int().min(0),
    rows: z.array(ScanRowSchema),
    delayed: z.boolean().optional(),
  })
  .describe('PlayerPropsResponse');
export type PlayerPropsResponse = z.infer<typeof PlayerPropsResponseSchema>;

const AverageSchema = z.number().nullable().describe('Mean over the mode; null with no games in it');

export const RecentGameSchema = z.object({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  opponent: z.string(),
  home: z.boolean(),
  value: z.number(),
  hit: z.boolean().nullable().describe("True when the value beat today's line; null without a line"),
});

export const StatContextSchema = z.object({
  stat: StatKeySchema,
  line: z.number().nullable().describe('The current consensus line; null when none is posted'),
  sampleN: z.number().int().min(0).describe('Recorded games in the sample'),
  averages: z.object({
    season: AverageSchema,
    last10: AverageSchema,
    last5: AverageSchema,
    home: AverageSchema,
    away: AverageSchema,
  }),
  recentForm: z.array(RecentGameSchema).describe('The last games, newest first'),
  hitRate: z.number().min(0).max(1).nullable().describe('Share of sampled games over the current line'),
  propsfeedProjection: ProjectionSchema.optional(),
});
export type StatContext = z.infer<typeof StatContextSchema>;

/** GET /context/player: per-mode averages, recent form and hit rates of one player. */
export const PlayerContextResponseSchema = z
  .object({
    player: z.string(),
    sport: SportIdSchema,
    team: z.string().optional(),
    stats: z.array(StatContextSchema),
  })
  .describe('PlayerContextResponse');
export type PlayerContextResponse = z.infer<typeof PlayerContextResponseSchema>;

export const LinePointSchema = z.object({
  at: IsoTimeSchema,
  line: z.number(),
  overOdds: AmericanOddsSchema.optional(),
  underOdds: AmericanOddsSchema.optional(),
});
export type LinePoint = z.infer<typeof LinePointSchema>;

export const BookHistorySchema = z.object({
  source: BookSchema,
  opening: LinePointSchema,
  current: LinePointSchema,
  changes: z
    .array(LinePointSchema)
    .describe(
      'Every change since the line opened, oldest first; a line suspended or pulled and offered again continues with the point of its return',
    ),
  truncated: z.boolean().optional().describe('True when more changes exist than one answer carries'),
});

/** GET /props/history: every line and odds change of one prop since it opened, per book. */
export const PropHistoryResponseSchema = z
  .object({
    eventId: EventIdSchema,
    sport: SportIdSchema,
    player: z.string(),
    stat: StatKeySchema,
    books: z.array(BookHistorySchema),
    delayed: z.boolean().optional(),
  })
  .describe('PropHistoryResponse');
export type PropHistoryResponse = z.infer<typeof PropHistoryResponseSchema>;

export const DirectionSchema = z.enum(['up', 'down', 'flat']);

const MoveSchema = z.object({
  openLine: z.number(),
  currentLine: z.number(),
  change: z.number().describe('currentLine - openLine'),
  direction: DirectionSchema,
});

export const MoverSchema = MoveSchema.extend({
  ...PropGameShape,
  player: z.string(),
  stat: StatKeySchema,
  oddsChange: z
    .number()
    .optional()
    .describe(
      'Largest movement of American odds on either side, in cents: on one continuous scale (-110 is -10, +105 is +5), so -120 to +120 is 40',
    ),
  books: z.array(MoveSchema.extend({ source: BookSchema })),
});
export type Mover = z.infer<typeof MoverSchema>;

/** GET /props/movement: the biggest line movers board-wide. */
export const MovementResponseSchema = z
  .object({
    sport: SportIdSchema,
    stat: StatKeySchema.nullable(),
    since: IsoTimeSchema.nullable().describe('Start of the window; null means since each line opened'),
    count: z.number().int().min(0),
    total: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Props that moved in the window, before the limit (count is how many of them this answer lists)'),
    movers: z.array(MoverSchema).describe('Sorted by absolute change, then by odds movement'),
    delayed: z.boolean().optional(),
  })
  .describe('MovementResponse');
export type MovementResponse = z.infer<typeof MovementResponseSchema>;
