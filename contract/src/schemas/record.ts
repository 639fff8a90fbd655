/** Settled props and the service's track record: how its published probabilities did. */
import { z } from 'zod';
import { MAX_RESULTS_LIMIT } from '../catalog';
import { BookSchema, SportIdSchema, StatKeySchema } from './common';
import { DaySchema } from './entry';
import { ProbabilityBasisSchema, PropGameShape } from './prop';
import { OptionalSportQuery, PlayerNameQuery, queryInt } from './query';

export const PROP_RESULTS = ['over', 'under', 'push'] as const;
export const PropResultSchema = z
  .enum(PROP_RESULTS)
  .describe('over: the final value beat the line; under: it fell short; push: it landed on it');
export type PropResult = z.infer<typeof PropResultSchema>;

const Probability = z.number().min(0).max(1);

/** One book's closing line of a settled prop, its result, and the estimate published at lock. */
export const SettledBookSchema = z
  .object({
    source: BookSchema,
    closingLine: z.number().describe("The book's last line before the game started"),
    result: PropResultSchema,
    pOver: Probability.nullable().describe('The chance of the over the service published at lock; null: none'),
    pUnder: Probability.nullable().describe('The chance of the under published at lock; null: none'),
    pPush: Probability.optional().describe('The chance of a push published at lock (integer lines only)'),
    basis: ProbabilityBasisSchema,
  })
  .describe('SettledBook');
export type SettledBook = z.infer<typeof SettledBookSchema>;

export const SettledPropSchema = z
  .object({
    ...PropGameShape,
    player: z.string(),
    stat: StatKeySchema,
    finalValue: z.number().describe("The player's final value of the stat, as the service recorded it"),
    books: z.array(SettledBookSchema).describe('Each book that posted the prop at the start, by book'),
  })
  .describe('SettledProp');
export type SettledProp = z.infer<typeof SettledPropSchema>;

export const ResultsResponseSchema = z
  .object({
    date: DaySchema.describe('The UTC day of the games'),
    sport: SportIdSchema.nullable().describe('The sport filter applied, null: every sport the tier allows'),
    count: z.number().int().min(0),
    total: z.number().int().min(0).describe('Settled props of the day matching the filters, before the limit'),
    results: z.array(SettledPropSchema).describe('By start time, game, player, then stat'),
  })
  .describe('ResultsResponse');
export type ResultsResponse = z.infer<typeof ResultsResponseSchema>;

export const ResultsQuerySchema = z.object({
  date: DaySchema.optional().describe(
    'UTC day of the games (default: today for pro and above, yesterday for free, which sees yesterday and earlier)',
  ),
  sport: OptionalSportQuery,
  player: PlayerNameQuery.optional().describe('Only this player (matched by normalized name)'),
  stat: StatKeySchema.optional().describe('Filter to a single stat key'),
  limit: queryInt(1, MAX_RESULTS_LIMIT)
    .default(500)
    .describe(`Maximum settled props (1 to ${MAX_RESULTS_LIMIT}, default 500)`),
});

export const TrackRecordQuerySchema = z.object({
  sport: OptionalSportQuery,
  stat: StatKeySchema.optional().describe('Filter to a single stat key'),
  since: DaySchema.optional().describe('Only games on or after this UTC day (default: every settled game)'),
  method: ProbabilityBasisSchema.exclude(['none', 'live'])
    .optional()
    .describe(
      'Only estimates of this basis: prices, prices_moved or distribution (default: all; the record scores the chances published at lock, so never live ones)',
    ),
});

export const CalibrationBinSchema = z
  .object({
    from: Probability.describe('Lowest predicted chance of the over in the bin'),
    to: Probability.describe('Highest (exclusive, but 1 is in the last bin)'),
    count: z.number().int().min(0).describe('Settled estimates in the bin'),
    predicted: Probability.nullable().describe('Their mean predicted chance of the over; null when empty'),
    observed: Probability.nullable().describe('The share of them that went over; null when empty'),
  })
  .describe('CalibrationBin');
export type CalibrationBin = z.infer<typeof CalibrationBinSchema>;

export const IntervalSchema = z
  .object({
    low: z.number(),
    high: z.number(),
  })
  .describe('Interval');
export type Interval = z.infer<typeof IntervalSchema>;

export const EdgeRecordSchema = z
  .object({
    entry: z.string().describe('Entry type id (GET /api/v1/entries)'),
    name: z.string(),
    book: BookSchema,
    breakeven: Probability.describe("The entry type's per-leg breakeven (the latest in force)"),
    minEdge: z.number().describe('Picks whose published edge against this entry type was at least this'),
    picks: z.number().int().min(0).describe('Picks decided (pushes left out: a pushed leg is dropped)'),
    hits: z.number().int().min(0).describe('Picks whose side won'),
    pushes: z.number().int().min(0).describe('Picks that pushed'),
    hitRate: Probability.nullable().describe('hits ÷ picks; null without picks'),
    roi: z
      .number()
      .nullable()
      .describe(
        'Return per unit staked at the breakeven odds (hitRate ÷ breakeven − 1): exact for Power and standard entries, whose payout is (1/breakeven)^picks; an approximation for flex and insured. Null without picks',
      ),
    hitRateInterval: IntervalSchema.nullable().describe(
      'The 95 % Wilson score interval of the hit rate over these picks; null without picks',
    ),
    roiInterval: IntervalSchema.nullable().describe(
      "The 95 % interval of the ROI: the hit rate's Wilson interval carried through the return per won pick (ROI = hitRate × return per win − 1, linear in the hit rate); null without picks",
    ),
  })
  .describe('EdgeRecord');
export type EdgeRecord = z.infer<typeof EdgeRecordSchema>;

const BRIER = 'Mean squared error of the over chance (given no push) against the result: 0 is perfect, 0.25 a coin';
const LOG_LOSS =
  'Mean negative log-likelihood of the results (natural log; chances clamped to [0.0001, 0.9999]): 0.693 a coin';
const ECE =
  "Expected calibration error: the calibration bins' |predicted − observed|, weighted by their counts (0 is perfectly calibrated); null when empty";

export const ScoresSchema = z
  .object({
    brier: z.number().nullable().describe(BRIER),
    logLoss: z.number().nullable().describe(LOG_LOSS),
    ece: z.number().nullable().describe(ECE),
  })
  .describe('Scores');

export const MarketRecordSchema = z
  .object({
    count: z
      .number()
      .int()
      .min(0)
      .describe(
        'Settled estimates (pushes apart) whose line a book priced at lock: the props on which the service and the market are compared',
      ),
    brier: z.number().nullable().describe(`The market's: ${BRIER}`),
    logLoss: z.number().nullable().describe(`The market's: ${LOG_LOSS}`),
    ece: z.number().nullable().describe(`The market's: ${ECE}`),
    calibration: z
      .array(CalibrationBinSchema)
      .describe("The market's over chance (given no push) in ten bins against the observed over rate"),
    ours: ScoresSchema.describe("The service's published chances scored on exactly these props"),
  })
  .describe(
    "MarketRecord: the market on the same settled props: the priced book's two sides at the lock's line as they stood at the start, de-vigged (the prop's own book first). Lower Brier and log loss are better; a coin flip scores Brier 0.25",
  );
export type MarketRecord = z.infer<typeof MarketRecordSchema>;

export const TrackRecordResponseSchema = z
  .object({
    sport: SportIdSchema.nullable(),
    stat: StatKeySchema.nullable(),
    since: DaySchema.nullable(),
    method: ProbabilityBasisSchema.nullable(),
    count: z
      .number()
      .int()
      .min(0)
      .describe('Settled (prop, book) estimates published at lock that went over or under (pushes apart)'),
    pushes: z.number().int().min(0).describe('Settled estimates that pushed: outside the scores below'),
    brier: z
      .number()
      .nullable()
      .describe('Mean squared error of the over chance (given no push) against the result: 0 is perfect, 0.25 a coin'),
    logLoss: z
      .number()
      .nullable()
      .describe(
        'Mean negative log-likelihood of the results (natural log; chances clamped to [0.0001, 0.9999]): 0.693 a coin',
      ),
    calibration: z
      .array(CalibrationBinSchema)
      .describe('Predicted chance of the over (given no push) in ten bins against the observed over rate'),
    ece: z.number().nullable().describe(ECE),
    market: MarketRecordSchema,
    edges: z
      .array(EdgeRecordSchema)
      .describe("Picks of the better side whose edge was at least minEdge, per entry type of the prop's book"),
    note: z.string().describe('What these numbers are and are not'),
    coefficients: z
      .string()
      .describe(
        "Which of the model's coefficients this server publishes its chances with, and what they were fitted on: 'real …' (fitted on real books' lines and results, served when the books are real) or 'simulated …' (fitted on the simulator, served on it)",
      ),
  })
  .describe('TrackRecordResponse');
export type TrackRecordResponse = z.infer<typeof TrackRecordResponseSchema>;
