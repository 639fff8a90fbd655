import { z } from 'zod';
import { BOOKS, GAME_STATES, SPORT_IDS, TIERS } from '../catalog';

export const SportIdSchema = z.enum(SPORT_IDS).describe('Sport id, e.g. nba (see GET /api/v1/sports)');
export const BookSchema = z.enum(BOOKS).describe('Book id: prizepicks or underdog');
export const TierSchema = z.enum(TIERS).describe('Tier id: free, pro, sharp or enterprise');
export const GameStateSchema = z.enum(GAME_STATES).describe('pre, live or final');

/** Event ids are a book prefix (pp_ or ud_) followed by that book's event number. */
export const EventIdSchema = z
  .string()
  .regex(/^(pp|ud)_[A-Za-z0-9-]{1,64}$/, 'an event id is pp_ or ud_ followed by the book event number')
  .describe('Event id: pp_ (PrizePicks) or ud_ (Underdog) followed by the book event number');

export const IsoTimeSchema = z.string().datetime({ offset: true }).describe('ISO 8601 timestamp');

/** American odds: at most -100 or at least +100. */
export const AmericanOddsSchema = z
  .number()
  .int()
  .refine((v) => v <= -100 || v >= 100, 'American odds are <= -100 or >= +100')
  .describe('American odds');

export const StatKeySchema = z
  .string()
  .regex(/^[a-z0-9_]{1,64}$/, 'a stat key is lowercase snake case')
  .describe('Stat key, lowercase snake case, e.g. points or pra');
