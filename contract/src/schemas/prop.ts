import { z } from 'zod';
import {
  AmericanOddsSchema,
  BookSchema,
  EventIdSchema,
  GameStateSchema,
  IsoTimeSchema,
  SportIdSchema,
  StatKeySchema,
} from './common';

/** One book's own line for a prop, for line shopping (beyond the spec, additive). */
export const BookLineSchema = z
  .object({
    source: BookSchema,
    line: z.number(),
    overOdds: AmericanOddsSchema.optional(),
    underOdds: AmericanOddsSchema.optional(),
  })
  .describe('BookLine');
export type BookLine = z.infer<typeof BookLineSchema>;

export const PlayerPropSchema = z
  .object({
    player: z.string().min(1),
    stat: StatKeySchema,
    line: z
      .number()
      .describe(
        'Posted over/under line (the line most books post). Only lines on offer now: a line a book suspends in-game leaves the board (its history records the pull) until the book offers it again',
      ),
    overOdds: AmericanOddsSchema.optional().describe('Best American odds for the over/higher'),
    underOdds: AmericanOddsSchema.optional().describe('Best American odds for the under/lower'),
    bookCount: z.number().int().min(1).describe('Number of books that contributed'),
    photoUrl: z.string().url().optional(),
    playerId: z.string().optional(),
    team: z
      .string()
      .optional()
      .describe("The player's team, as the game names it (homeTeam or awayTeam); absent when no book says"),
    liveValue: z
      .number()
      .optional()
      .describe(
        "The player's running value of the stat; live games only. When the books report different values, the one that changed most recently",
      ),
    gameClock: z
      .string()
      .regex(/^\S+ \d{1,3}:\d{2}$/, "a game clock is '<period> <minutes:seconds>'")
      .optional()
      .describe("In-game clock, '<period> <minutes:seconds>'"),
    gameState: GameStateSchema.optional(),
    books: z
      .array(BookLineSchema)
      .optional()
      .describe("Each book's own line and odds, of the books offering it now (not those that suspended it)"),
  })
  .describe('PlayerProp');
export type PlayerProp = z.infer<typeof PlayerPropSchema>;

/** The game fields a prop's row, result or move carries, in this order. */
export const PropGameShape = {
  eventId: EventIdSchema,
  sport: SportIdSchema,
  homeTeam: z.string(),
  awayTeam: z.string(),
  startTime: IsoTimeSchema,
};

export const PropsResultSchema = z
  .object({
    ...PropGameShape,
    props: z.array(PlayerPropSchema),
    sources: z.array(BookSchema).describe('Books that contributed'),
    fetchedAt: z.number().int().describe('Epoch milliseconds when the upstream snapshot was taken'),
    delayed: z.boolean().describe('True when served on a delay (free tier)'),
  })
  .describe('PropsResult');
export type PropsResult = z.infer<typeof PropsResultSchema>;

/** The service's own projection for a line; present only with at least 5 recorded games. */
export const ProjectionSchema = z
  .object({
    value: z.number(),
    sampleN: z.number().int().min(5).describe('Games in the sample'),
    method: z.string().min(1).describe('The basis of the projection, in words'),
    marketKey: z
      .string()
      .regex(/^[a-z]+:[a-z0-9_]+$/)
      .describe('<sport>:<stat>'),
  })
  .describe('Projection');
export type Projection = z.infer<typeof ProjectionSchema>;

/**
 * What an estimate rests on: `prices` a priced book's two sides de-vigged at this line;
 * `prices_moved` that probability moved to this line through the player's distribution;
 * `distribution` the player's distribution alone; `live` in-game, the value so far plus the
 * distribution over what is left; `none` no estimate.
 */
export const PROBABILITY_BASES = ['prices', 'prices_moved', 'distribution', 'live', 'none'] as const;
export const ProbabilityBasisSchema = z
  .enum(PROBABILITY_BASES)
  .describe(
    'What the estimate rests on: prices (a priced book de-vigged at this line), prices_moved (that moved to this line through the distribution), distribution (the player distribution alone), live (in-game: the value so far plus the distribution over what is left), none',
  );
export type ProbabilityBasis = z.infer<typeof ProbabilityBasisSchema>;

/**
 * What each basis means, said once per answer (the edges answer's `methods`) rather than on
 * every row: a row's `method` gives only its figures.
 */
export const PROBABILITY_METHODS: Record<ProbabilityBasis, string> = {
  prices:
    "One distribution of the player's stat, read at this line, centred on a blend of the priced books' read (the mean at which their two odds, de-vigged multiplicatively, hold at their line), the season's game logs (recency-weighted) and recent form, with weights ≥ 0 that sum to 1 (so the mean lies within them; the logs' shrink with the player's games) and a spread, all fitted on earlier days' results (real coefficients when the books are real, the simulator's on it); negative binomial for counts, a continuity-corrected normal (cc) for larger stats.",
  prices_moved:
    "The same distribution as prices (the priced books blended with the logs), read at this book's line, which differs from the priced one.",
  distribution:
    "No book prices the prop: the same distribution with the line as the market's read, blended with the season's logs and recent form.",
  live: "In-game: the value so far plus the same blended distribution over the share of regulation the books' clock says is left, its market read taken from the live line and prices (scaled to a whole game); a prop whose value already beats the line is decided.",
  none: 'No estimate: the prop has no line to read.',
};

/** One book's line with the service's estimate of each side's chance (an estimate, not a promise). */
export const FairProbabilitySchema = z
  .object({
    source: BookSchema,
    line: z.number().describe("The book's line"),
    pOver: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe('Estimated chance the stat finishes over the line; null when the basis is too thin'),
    pUnder: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .describe('Estimated chance it finishes under; null when the basis is too thin'),
    pPush: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('Estimated chance it lands exactly on the line (integer lines only); pOver + pUnder + pPush = 1'),
    basis: ProbabilityBasisSchema,
    method: z
      .string()
      .min(1)
      .describe(
        "The estimate's figures in a few words (e.g. 'Underdog 25.5 -130/+110 de-vigged, margin 4.1 %; moved to 24.5 by normal mean 25.96 sd 4.25 cc on 10 games'), or why there is none; what each basis means is in the edges answer's methods",
      ),
  })
  .describe('FairProbability');
export type FairProbability = z.infer<typeof FairProbabilitySchema>;

export const PROP_SIDES = ['over', 'under'] as const;
export const PropSideSchema = z.enum(PROP_SIDES).describe('over (higher) or under (lower)');
export type PropSide = z.infer<typeof PropSideSchema>;

/** The better side of a prop against an entry type's breakeven. */
export const EdgeSchema = z
  .object({
    source: BookSchema.describe('The book whose line this is'),
    line: z.number(),
    side: PropSideSchema,
    probability: z
      .number()
      .min(0)
      .max(1)
      .describe('Estimated chance the side wins, given the leg does not push (a pushed leg is dropped from the entry)'),
    entry: z.string().describe('The entry type judged against (GET /api/v1/entries)'),
    breakeven: z.number().min(0).max(1).describe("That entry type's per-leg breakeven"),
    edge: z.number().describe('probability − breakeven: above 0, the side beats the entry type on this estimate'),
    workings: z
      .string()
      .min(1)
      .describe(
        "The edge's workings in one sentence a bettor can check: the market read, the season and form reads with their weights (each ≥ 0, summing to 1) and the mean they give, the distribution, the side's chance given no push, the breakeven and the edge; and which coefficients (real or simulated) made it",
      ),
  })
  .describe('Edge');
export type Edge = z.infer<typeof EdgeSchema>;

export const ScanRowSchema = PlayerPropSchema.extend({
  ...PropGameShape,
  source: BookSchema,
  fetchedAt: z.number().int().optional().describe('Epoch milliseconds of the upstream snapshot'),
  propsfeedProjection: ProjectionSchema.optional(),
  probabilities: z
    .array(FairProbabilitySchema)
    .optional()
    .describe('Per book posting the prop: estimated chances of over, under and push (pro tier and above)'),
  edge: EdgeSchema.optional().describe(
    "The better side against the book's entry type with the lowest breakeven (pro tier and above); absent without a probability",
  ),
  edgeWithheld: z
    .string()
    .optional()
    .describe(
      'Why some of the chances carry no edge: their basis was not calibrated on the days it was scored on (a calibration bin outside max(3 points, 2 standard errors)), so no edge is claimed from them',
    ),
}).describe('ScanRow');
export type ScanRow = z.infer<typeof ScanRowSchema>;

export const ScanResponseSchema = z
  .object({
    sport: SportIdSchema,
    stat: StatKeySchema.nullable().describe('The stat filter applied, null when none'),
    count: z.number().int().min(0),
    rows: z.array(ScanRowSchema).describe('Live props first'),
    total: z.number().int().min(0).optional().describe('Rows available before the limit and tier cap'),
    delayed: z.boolean().optional().describe('True when served on a delay (free tier)'),
  })
  .describe('ScanResponse');
export type ScanResponse = z.infer<typeof ScanResponseSchema>;

export const EdgesResponseSchema = ScanResponseSchema.extend({
  entry: z
    .string()
    .nullable()
    .describe("The entry type asked for; null: each book's entry type with the lowest breakeven"),
  minEdge: z.number().nullable().describe('The minimum edge asked for, null when none'),
  methods: z
    .record(ProbabilityBasisSchema, z.string())
    .describe("What each probability basis means (the rows' basis), said once rather than on every row"),
  withheld: z
    .record(ProbabilityBasisSchema, z.string())
    .optional()
    .describe(
      'Bases whose edges are withheld, with why: their chances were not calibrated on the days they were scored on (a calibration bin outside max(3 points, 2 standard errors)), so no row carries an edge from them; absent when none is',
    ),
}).describe('EdgesResponse');
export type EdgesResponse = z.infer<typeof EdgesResponseSchema>;
