import { z } from 'zod';
import { SportIdSchema, TierSchema } from './common';

export const SportSchema = z
  .object({
    id: SportIdSchema,
    name: z.string().describe('Display name'),
    enabled: z.boolean().describe("True when the caller's tier allows this sport"),
    requiredTier: TierSchema.describe('The lowest tier that allows this sport (what unlocks it when not enabled)'),
  })
  .describe('Sport');
export type Sport = z.infer<typeof SportSchema>;

export const SportsResponseSchema = z.object({ sports: z.array(SportSchema) }).describe('SportsResponse');
export type SportsResponse = z.infer<typeof SportsResponseSchema>;
