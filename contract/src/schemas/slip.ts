import { z } from 'zod';
import { MAX_SLIP_LEGS, MIN_ENTRY_PICKS } from '../catalog';
import { BookSchema, EventIdSchema, SportIdSchema, StatKeySchema } from './common';
import { EntryKindSchema } from './entry';
import { PropSideSchema } from './prop';
import { PlayerNameQuery } from './query';

export const SlipLegSchema = z
  .object({
    eventId: EventIdSchema.optional().describe("The game; when absent, the player's one game on today's board"),
    player: PlayerNameQuery,
    team: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe("The player's team, to tell players of one name apart: a full name, nickname, city or abbreviation"),
    sport: SportIdSchema.optional().describe("The player's sport, to tell players of one name apart"),
    stat: StatKeySchema,
    side: PropSideSchema,
    book: BookSchema.optional().describe('The book the entry is played at; every leg names the same one, or none'),
  })
  .describe('SlipLeg');
export type SlipLeg = z.infer<typeof SlipLegSchema>;

export const SlipRequestSchema = z
  .object({
    legs: z
      .array(SlipLegSchema)
      .min(MIN_ENTRY_PICKS)
      .max(MAX_SLIP_LEGS)
      .describe(`${MIN_ENTRY_PICKS} to ${MAX_SLIP_LEGS} legs`),
  })
  .describe('SlipRequest');
export type SlipRequest = z.infer<typeof SlipRequestSchema>;

export const EvaluatedLegSchema = z
  .object({
    eventId: EventIdSchema,
    player: z.string(),
    stat: StatKeySchema,
    side: PropSideSchema,
    line: z.number().describe("The book's line"),
    probability: z.number().min(0).max(1).describe('Estimated chance the side wins, given no push'),
    method: z.string().describe('How the probability was estimated'),
    correlatedWith: z
      .array(z.number().int().min(0))
      .describe('Indexes of the other legs from the same game (their outcomes may move together)'),
  })
  .describe('EvaluatedLeg');

export const SlipEntrySchema = z
  .object({
    entry: z.string().describe('Entry type id'),
    name: z.string(),
    kind: EntryKindSchema,
    breakeven: z.number().min(0).max(1),
    winProbability: z.number().min(0).max(1).describe('Chance the entry returns more than its stake'),
    expectedReturn: z.number().min(0).describe('Expected return per unit staked (1 = break even)'),
    hits: z
      .array(
        z.object({
          hits: z.number().int().min(0),
          probability: z.number().min(0).max(1),
          multiplier: z.number().min(0).describe('Paid per unit staked at this many legs won (0: lost)'),
        }),
      )
      .describe('The distribution of legs won, from all down to none'),
  })
  .describe('SlipEntry');

export const SlipEvaluationSchema = z
  .object({
    book: BookSchema,
    legs: z.array(EvaluatedLegSchema),
    entries: z.array(SlipEntrySchema).describe('Each entry type of the book with as many picks as legs'),
    correlated: z.boolean().describe('True when two or more legs are from the same game'),
    assumption: z.string().describe('What the numbers assume (independent legs) and what they do not promise'),
  })
  .describe('SlipEvaluation');
export type SlipEvaluation = z.infer<typeof SlipEvaluationSchema>;
