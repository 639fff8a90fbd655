import { z } from 'zod';
import { SportIdSchema } from './common';

export const SportSchema = z
  .object({
    id: SportIdSchema,
    name: z.string().describe('Display name'),
    enabled: z.boolean().describe("True when the caller's tier allows this sport"),
  })
  .describe('Sport');
export type Sport = z.infer<typeof SportSchema>;

export const SportsResponseSchema = z.object({ sports: z.array(SportSchema) }).describe('SportsResponse');
export type SportsResponse = z.infer<typeof SportsResponseSchema>;
