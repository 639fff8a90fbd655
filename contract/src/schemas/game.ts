import { z } from 'zod';
import { FINAL_GAMES_LISTED_HOURS } from '../catalog';
import { BookSchema, EventIdSchema, GameStateSchema, IsoTimeSchema, SportIdSchema } from './common';

export const GameSchema = z
  .object({
    id: EventIdSchema,
    sport: SportIdSchema,
    homeTeam: z.string(),
    awayTeam: z.string(),
    startTime: IsoTimeSchema,
    live: z.boolean().describe("True while the game is in progress: the same as state 'live', kept for compatibility"),
    state: GameStateSchema.describe(
      'pre (not started), live (in progress) or final (over): the state its props carry as gameState',
    ),
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
      .describe('The running score while live, the final score once final, from a book that reports it'),
    clock: z
      .string()
      .regex(/^\S+ \d{1,3}:\d{2}$/, "a game clock is '<period> <minutes:seconds>'")
      .optional()
      .describe("The game clock while live, '<period> <minutes:seconds>' in the sport's periods (Q3 4:12, P2 11:04)"),
  })
  .describe('Game');
export type Game = z.infer<typeof GameSchema>;

export const GamesResponseSchema = z
  .object({
    sport: SportIdSchema,
    count: z.number().int().min(0),
    games: z
      .array(GameSchema)
      .describe(
        `Live games first, then pre-game games by start time, then finished games; without \`state\`, a finished game is listed for ${FINAL_GAMES_LISTED_HOURS} hours after it ends`,
      ),
    delayed: z.boolean().optional().describe('True when served on a delay (free tier)'),
  })
  .describe('GamesResponse');
export type GamesResponse = z.infer<typeof GamesResponseSchema>;
