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

/** A key's label as every entry point takes it (sign-up, admin API, `props keys create`). */
export const KeyLabelSchema = z
  .string()
  .min(1)
  .max(MAX_KEY_LABEL_LENGTH)
  .regex(/\S/, 'a label needs a character other than spaces');

export const CreateKeyRequestSchema = z
  .object({
    email: z.string().email().max(254).describe('Where to reach the key owner'),
    label: KeyLabelSchema.optional().describe('A name for the key'),
  })
  .describe('CreateKeyRequest');

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
