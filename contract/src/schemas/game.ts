import { z } from 'zod';
import { BookSchema, EventIdSchema, IsoTimeSchema, SportIdSchema } from './common';

export const GameSchema = z
  .object({
    id: EventIdSchema,
    sport: SportIdSchema,
    homeTeam: z.string(),
    awayTeam: z.string(),
    startTime: IsoTimeSchema,
    live: z.boolean().describe('True while the game is in progress'),
    source: BookSchema.describe('The book that posted the game first; its id is the game id'),
    aliases: z
      .array(EventIdSchema)
      .optional()
      .describe(
        "The other ids the books posted the same game under (the other book's, or a book's second posting of it); the props route accepts them too",
      ),
    score: z
      .object({ home: z.number().int().min(0), away: z.number().int().min(0) })
      .optional()
      .describe('The running score while the game is live, from a book that reports it'),
  })
  .describe('Game');
export type Game = z.infer<typeof GameSchema>;

export const GamesResponseSchema = z
  .object({
    sport: SportIdSchema,
    count: z.number().int().min(0),
    games: z.array(GameSchema).describe('Live games first, then by start time'),
    delayed: z.boolean().optional().describe('True when served on a delay (free tier)'),
  })
  .describe('GamesResponse');
export type GamesResponse = z.infer<typeof GamesResponseSchema>;
