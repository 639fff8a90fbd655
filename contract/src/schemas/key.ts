import { z } from 'zod';
import { MAX_SCAN_LIMIT } from '../catalog';
import { SportIdSchema, TierSchema } from './common';

export const KeyLimitsSchema = z.object({
  requestsPerMinute: z.number().int().min(0),
  requestsPerDay: z.number().int().min(0),
  realtime: z.boolean(),
  sports: z.union([z.array(SportIdSchema), z.literal('all')]).describe("Sports allowed, or 'all'"),
  scanLimit: z.number().int().min(1).max(MAX_SCAN_LIMIT).describe('Row cap for the scan endpoint'),
  liveLines: z.boolean().optional().describe('True when live in-game lines are included'),
  delaySeconds: z.number().int().min(0).optional().describe('How far behind realtime the data is served'),
});
export type KeyLimits = z.infer<typeof KeyLimitsSchema>;

export const KeyInfoSchema = z
  .object({
    keyPrefix: z.string().describe("Leading characters of the caller's key"),
    tier: TierSchema,
    label: z.string(),
    limits: KeyLimitsSchema,
    usage: z.object({
      today: z.number().int().min(0).describe('Requests used today (UTC day)'),
      dailyRemaining: z.number().int().min(0),
    }),
  })
  .describe('KeyInfo');
export type KeyInfo = z.infer<typeof KeyInfoSchema>;

/** Longest key label; a sign-up without one is labelled with its email, shortened to this. */
export const MAX_KEY_LABEL_LENGTH = 100;

/**
 * No control characters (C0 with tab and newline, DEL, C1), line or paragraph separators, or
 * bidirectional overrides: stored text must not be able to steer the terminal it is printed on.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it refuses
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]*$/;
export const NO_CONTROL_MESSAGE =
  'control characters (escapes, newlines, NUL, bidirectional overrides) are not allowed';
/**
 * Valid Unicode: every surrogate in a pair. A lone one cannot be stored as UTF-8, so it would
 * come back changed. A refinement, not a pattern: the OpenAPI document shows one pattern per
 * string, the control characters' one.
 */
export const isWellFormed = (text: string) => /^(?:[^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/.test(text);
export const WELL_FORMED_MESSAGE = 'must be valid Unicode (a lone surrogate, such as \\uD800 alone, is not)';

/** A key's label as every entry point takes it (sign-up, admin API, `props keys create`). */
export const KeyLabelSchema = z
  .string()
  .min(1)
  .max(MAX_KEY_LABEL_LENGTH)
  .regex(/\S/, 'a label needs a character other than spaces')
  .regex(NO_CONTROL_CHARACTERS, NO_CONTROL_MESSAGE)
  .refine(isWellFormed, WELL_FORMED_MESSAGE);

export const CreateKeyRequestSchema = z
  .object({
    email: z
      .string()
      .max(254)
      .regex(NO_CONTROL_CHARACTERS, NO_CONTROL_MESSAGE)
      .email()
      .describe('Where to reach the key owner'),
    label: KeyLabelSchema.optional().describe('A name for the key'),
  })
  .describe('CreateKeyRequest');
export type CreateKeyRequest = z.input<typeof CreateKeyRequestSchema>;

export const CreatedKeySchema = z
  .object({
    key: z
      .string()
      .regex(/^pf_[0-9A-Za-z]{32}$/)
      .describe('The API key; shown only once'),
    keyPrefix: z.string(),
    tier: TierSchema,
    label: z.string(),
    limits: KeyLimitsSchema,
  })
  .describe('CreatedKey');
export type CreatedKey = z.infer<typeof CreatedKeySchema>;
