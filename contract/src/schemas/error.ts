import { z } from 'zod';
import { ERROR_CODES } from '../catalog';
import { TierSchema } from './common';

const errorShape = {
  error: z.enum(ERROR_CODES).describe('Machine-readable error code'),
  message: z.string().describe('Human-readable explanation'),
  requiredTier: TierSchema.optional().describe('On 403: the lowest tier that allows this request'),
  candidates: z.array(z.string()).optional().describe('On an ambiguous player name: the players it could mean'),
  choices: z
    .array(z.string())
    .optional()
    .describe(
      'On an ambiguous slip leg: each leg it could mean, written as the CLI takes a leg (player@team:stat:side[@book]), ready to paste',
    ),
};
/**
 * The envelope's schema type, named: an interface is written once in declaration files, where
 * the structural type would be spelled out again at each of the contract's ~300 error answers.
 */
export interface ErrorSchemaType extends z.ZodObject<typeof errorShape> {}
/** Every error answer has this envelope; extra fields only add detail a client can act on. */
export const ErrorSchema: ErrorSchemaType = z.object(errorShape).describe('Error');
export type ApiError = z.infer<typeof ErrorSchema>;
