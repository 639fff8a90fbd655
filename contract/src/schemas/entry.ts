import { z } from 'zod';
import { ENTRY_KINDS, MAX_ENTRY_PICKS, MIN_ENTRY_PICKS } from '../catalog';
import { BookSchema } from './common';

export const EntryKindSchema = z
  .enum(ENTRY_KINDS)
  .describe(
    'power (PrizePicks, all legs must win), flex (PrizePicks, pays on fewer hits too), standard or insured (Underdog)',
  );

export const DaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is YYYY-MM-DD')
  // Date.parse rolls 2026-02-30 over to March: the day must read back as itself. (A value
  // that is no YYYY-MM-DD at all is the regex's to refuse: one sentence, not two.)
  .refine((v) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return true;
    const ms = Date.parse(`${v}T00:00:00Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === v;
  }, 'not a calendar day')
  .describe('UTC day, YYYY-MM-DD');

export const EntryPayoutSchema = z
  .object({
    hits: z.number().int().min(0).describe('Legs won'),
    multiplier: z.number().min(0.01).describe('Paid as a multiple of the stake (the stake included)'),
  })
  .describe('EntryPayout');

/**
 * One payout table as the catalog (or an operator's file) gives it. The checks are those the
 * breakeven needs: one payout per hit count, within the picks, growing with hits, and a full
 * card that pays more than the stake (else no probability breaks even).
 */
export const EntryTableSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9_]{1,64}$/, 'an entry id is lowercase snake case')
      .describe('Entry type id, e.g. prizepicks_power_2'),
    book: BookSchema,
    kind: EntryKindSchema,
    picks: z.number().int().min(MIN_ENTRY_PICKS).max(MAX_ENTRY_PICKS).describe('Legs in the entry'),
    payouts: z.array(EntryPayoutSchema).min(1).describe('What each number of winning legs pays; other counts lose'),
    effectiveFrom: DaySchema.describe('First UTC day this table applies'),
  })
  .superRefine((t, ctx) => {
    const hits = t.payouts.map((p) => p.hits);
    if (new Set(hits).size !== hits.length)
      ctx.addIssue({ code: 'custom', message: `${t.id}: a hit count is paid twice` });
    if (hits.some((h) => h > t.picks))
      ctx.addIssue({ code: 'custom', message: `${t.id}: pays for more hits than picks` });
    const byHits = [...t.payouts].sort((a, b) => a.hits - b.hits);
    if (byHits.some((p, i) => i > 0 && p.multiplier < (byHits[i - 1]?.multiplier ?? 0)))
      ctx.addIssue({ code: 'custom', message: `${t.id}: a payout falls as hits grow` });
    const full = t.payouts.find((p) => p.hits === t.picks);
    if (!full || full.multiplier <= 1)
      ctx.addIssue({ code: 'custom', message: `${t.id}: winning every leg must pay more than the stake` });
  })
  .describe('EntryTable');

/** A replacement list of payout tables; (id, effectiveFrom) is unique. */
export const EntryTablesSchema = z
  .array(EntryTableSchema)
  .min(1)
  .superRefine((tables, ctx) => {
    const seen = new Set<string>();
    for (const t of tables) {
      const key = `${t.id}@${t.effectiveFrom}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: `${t.id} is given twice from ${t.effectiveFrom}` });
      seen.add(key);
    }
  });

export const EntryTypeSchema = z
  .object({
    id: z.string().describe('Entry type id, e.g. prizepicks_power_2'),
    name: z.string().describe('Display name, e.g. "PrizePicks 2-pick Power"'),
    book: BookSchema,
    kind: EntryKindSchema,
    picks: z.number().int().describe('Legs in the entry'),
    payouts: z.array(EntryPayoutSchema).describe('Payouts by legs won, most hits first; other counts lose the stake'),
    effectiveFrom: DaySchema.describe('First UTC day this table applies'),
    breakeven: z
      .number()
      .min(0)
      .max(1)
      .describe(
        'Per-leg win probability at which the expected return equals the stake, computed from the payouts (all legs independent and equally likely)',
      ),
  })
  .describe('EntryType');
export type EntryType = z.infer<typeof EntryTypeSchema>;

export const EntriesResponseSchema = z
  .object({
    asOf: DaySchema.describe('The UTC day whose tables these are'),
    entries: z.array(EntryTypeSchema).describe('Every entry type in force, by book, kind and picks'),
  })
  .describe('EntriesResponse');
export type EntriesResponse = z.infer<typeof EntriesResponseSchema>;
