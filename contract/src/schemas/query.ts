import { z } from 'zod';
import {
  BOOKS,
  DEFAULT_MOVERS_LIMIT,
  DEFAULT_SPORT,
  FINAL_GAMES_LISTED_HOURS,
  MAX_MOVERS_LIMIT,
  MAX_SCAN_LIMIT,
  SCAN_SORTS,
  STATE_FILTERS,
} from '../catalog';
import { EventIdSchema, SportIdSchema, StatKeySchema } from './common';

/**
 * Integers in a query string: digits only, so `limit=` or `limit=1e3` is a 400, not a surprise;
 * anything else (`-1`, `abc`, out of range) is refused with the range it must be in.
 */
export function queryInt(min: number, max: number) {
  const range = `a whole number from ${min} to ${max}`;
  return z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v),
    z.number({ invalid_type_error: range }).int(range).min(min, range).max(max, range),
  );
}

export const SportQuery = SportIdSchema.default(DEFAULT_SPORT).describe(
  'Sport id (default nba; see GET /api/v1/sports)',
);
export const OptionalSportQuery = SportIdSchema.optional().describe('Sport id; all sports the tier allows when absent');

export const StatsListQuery = z
  .string()
  .max(1000)
  .regex(/^[a-z0-9_]+(,[a-z0-9_]+)*$/, 'stats is a comma-separated list of stat keys')
  .describe('Comma-separated stat keys used as a filter, e.g. points,pra');

export const PlayerNameQuery = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe('Player name; forgiving of case, accents and typos');

const StateFilterSchema = z.enum(STATE_FILTERS, {
  errorMap: () => ({ message: `state is one of ${STATE_FILTERS.join(', ')}` }),
});

/** The props of which games a board route shows: by default the open games' (pre-game and live). */
export const PropStateQuery = StateFilterSchema.optional().describe(
  "Only props of games in this state (pre, live or final), or all; the open games' props (pre and live) when absent",
);

export const GamesQuerySchema = z.object({
  sport: SportQuery,
  state: StateFilterSchema.optional().describe(
    `Only games in this state (pre, live or final), or all; when absent, the open games and the games that ended within the last ${FINAL_GAMES_LISTED_HOURS} hours`,
  ),
});
export const GamePropsQuerySchema = z.object({ stats: StatsListQuery.optional(), sport: SportQuery });
export const ScanQuerySchema = z.object({
  sport: SportQuery,
  stat: StatKeySchema.optional().describe('Filter to a single stat key'),
  limit: queryInt(1, MAX_SCAN_LIMIT)
    .optional()
    .describe(`Maximum rows (1 to ${MAX_SCAN_LIMIT}), further capped by the tier's scanLimit`),
  state: PropStateQuery,
  sort: z
    .enum(SCAN_SORTS, { errorMap: () => ({ message: `sort is one of ${SCAN_SORTS.join(', ')}` }) })
    .optional()
    .describe(
      'Order of the whole board before the limit: line (highest first), odds (best price first), edge (best edge first; pro and above carry edges), books (most first), player (A to Z); board order (live first, then by start) when absent',
    ),
  minBooks: queryInt(1, BOOKS.length)
    .optional()
    .describe(`Only props posted by at least this many books (1 to ${BOOKS.length}), applied before the limit`),
});
/** A scan's query as the server reads it, once parsed (the sport defaulted). */
export type ScanQuery = z.infer<typeof ScanQuerySchema>;
export const PlayerPropsQuerySchema = z.object({
  name: PlayerNameQuery,
  sport: OptionalSportQuery,
  state: PropStateQuery,
});
export const PlayerContextQuerySchema = z.object({
  name: PlayerNameQuery,
  sport: OptionalSportQuery,
  stat: StatKeySchema.optional().describe('One stat key; every stat of the player when absent'),
});
export const PropHistoryQuerySchema = z.object({
  eventId: EventIdSchema,
  player: PlayerNameQuery,
  stat: StatKeySchema,
  source: z.enum(['prizepicks', 'underdog']).optional().describe('One book; both when absent'),
});
export const MovementQuerySchema = z.object({
  sport: SportQuery,
  stat: StatKeySchema.optional().describe('Filter to a single stat key'),
  since: z
    .string()
    .datetime({ offset: true })
    .optional()
    .describe('ISO 8601 time; movement since then (default: since each line opened)'),
  limit: queryInt(1, MAX_MOVERS_LIMIT)
    .default(DEFAULT_MOVERS_LIMIT)
    .describe(`Maximum movers (1 to ${MAX_MOVERS_LIMIT}, default ${DEFAULT_MOVERS_LIMIT})`),
  state: PropStateQuery,
});

export const EntryIdQuery = z
  .string()
  .regex(/^[a-z0-9_]{1,64}$/, 'an entry id is lowercase snake case')
  .describe("Entry type id from GET /api/v1/entries (default: each book's entry type with the lowest breakeven)");

/** A decimal in a query string, within bounds: `minEdge=abc` or an empty value is a 400. */
function queryDecimal(min: number, max: number) {
  return z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d{1,3}(\.\d{1,9})?$/.test(v) ? Number(v) : v),
    z.number().min(min).max(max),
  );
}

/** An edge floor: a probability difference from -1 to 1 (the edges query's and the stream's). */
export const MinEdgeQuery = queryDecimal(-1, 1);

export const EdgesQuerySchema = z.object({
  sport: SportQuery,
  stat: StatKeySchema.optional().describe('Filter to a single stat key'),
  entry: EntryIdQuery.optional(),
  minEdge: MinEdgeQuery.optional().describe(
    'Only rows whose edge is at least this (a probability difference, e.g. 0.02); every row with an edge when absent',
  ),
  limit: queryInt(1, MAX_SCAN_LIMIT)
    .optional()
    .describe(`Maximum rows (1 to ${MAX_SCAN_LIMIT}), further capped by the tier's scanLimit`),
  state: PropStateQuery,
});
