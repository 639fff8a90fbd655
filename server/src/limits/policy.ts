/**
 * The tier table: the one place that holds each tier's numbers.
 * Everything else asks this module what a caller may see and how often.
 */
import { type KeyLimits, MAX_SCAN_LIMIT, SPORT_IDS, type SportId, TIERS, type Tier } from '@propsfeed/contract';

export interface TierPolicy {
  tier: Tier;
  /** 0 for realtime; the free tier sees the board as it stood this long ago. */
  delayMs: number;
  /** Sports allowed; 'all' for every sport of the catalog. */
  sports: readonly SportId[] | 'all';
  liveLines: boolean;
  requestsPerMinute: number;
  requestsPerDay: number;
  scanLimit: number;
  /** Board routes beyond the free tier's (history, movement). */
  proRoutes: boolean;
  redistribution: boolean;
  /** Streams (GET /api/v1/stream) one key may hold open at once. */
  maxStreams: number;
  /** Webhook endpoints one key may register (0: no webhooks). */
  maxWebhooks: number;
  /** Events one webhook endpoint receives per minute at most; past it, one webhook.capped summary. */
  webhookEventsPerMinute: number;
}

const TABLE: Record<Tier, TierPolicy> = {
  free: {
    tier: 'free',
    delayMs: 10 * 60_000,
    sports: ['nba'],
    liveLines: false,
    requestsPerMinute: 30,
    requestsPerDay: 1_000,
    scanLimit: 100,
    proRoutes: false,
    redistribution: false,
    maxStreams: 1,
    maxWebhooks: 0,
    webhookEventsPerMinute: 0,
  },
  pro: {
    tier: 'pro',
    delayMs: 0,
    sports: ['nba', 'wnba', 'mlb'],
    liveLines: false,
    requestsPerMinute: 120,
    requestsPerDay: 20_000,
    scanLimit: 1_000,
    proRoutes: true,
    redistribution: false,
    maxStreams: 3,
    maxWebhooks: 5,
    webhookEventsPerMinute: 600,
  },
  sharp: {
    tier: 'sharp',
    delayMs: 0,
    sports: 'all',
    liveLines: true,
    requestsPerMinute: 600,
    requestsPerDay: 200_000,
    scanLimit: MAX_SCAN_LIMIT,
    proRoutes: true,
    redistribution: false,
    maxStreams: 10,
    maxWebhooks: 20,
    webhookEventsPerMinute: 3_000,
  },
  // Enterprise numbers are set per key when it is made; these are the defaults of such a key.
  enterprise: {
    tier: 'enterprise',
    delayMs: 0,
    sports: 'all',
    liveLines: true,
    requestsPerMinute: 3_000,
    requestsPerDay: 2_000_000,
    scanLimit: MAX_SCAN_LIMIT,
    proRoutes: true,
    redistribution: true,
    maxStreams: 100,
    maxWebhooks: 100,
    webhookEventsPerMinute: 20_000,
  },
};

/** Per-key overrides; only enterprise keys may carry them. */
export interface KeyOverrides {
  rpm?: number | null;
  rpd?: number | null;
  scanLimit?: number | null;
}

/** The numbers one key runs under: its tier's, with an enterprise key's own overrides. */
export function effectivePolicy(tier: Tier, overrides: KeyOverrides = {}): TierPolicy {
  const base = TABLE[tier];
  if (tier !== 'enterprise') return base;
  return {
    ...base,
    requestsPerMinute: overrides.rpm ?? base.requestsPerMinute,
    requestsPerDay: overrides.rpd ?? base.requestsPerDay,
    scanLimit: Math.min(overrides.scanLimit ?? base.scanLimit, MAX_SCAN_LIMIT),
  };
}

export function allowsSport(policy: TierPolicy, sport: SportId): boolean {
  return policy.sports === 'all' || policy.sports.includes(sport);
}

/** The lowest tier that allows `sport` (for a 403's requiredTier). */
export function lowestTierForSport(sport: SportId): Tier {
  return TIERS.find((t) => allowsSport(TABLE[t], sport)) ?? 'enterprise';
}

/** The lowest tier with live in-game lines. */
export function lowestLiveTier(): Tier {
  return TIERS.find((t) => TABLE[t].liveLines) ?? 'enterprise';
}

/** The lowest tier a route marked with `tier` in the contract metadata is open to. */
export function allowsRouteTier(policy: TierPolicy, routeTier: 'free' | 'pro'): boolean {
  return routeTier === 'free' || policy.proRoutes;
}

/** The limits object of KeyInfo / CreatedKey. */
export function keyLimits(policy: TierPolicy): KeyLimits {
  return {
    requestsPerMinute: policy.requestsPerMinute,
    requestsPerDay: policy.requestsPerDay,
    realtime: policy.delayMs === 0,
    sports: policy.sports === 'all' ? 'all' : [...policy.sports],
    scanLimit: policy.scanLimit,
    liveLines: policy.liveLines,
    delaySeconds: Math.round(policy.delayMs / 1000),
  };
}

export const ALL_SPORTS: readonly SportId[] = SPORT_IDS;

/** Free keys from POST /api/v1/keys, per client network (/24 or /64: keys/signupGate.ts). */
export const NETWORK_SIGNUP_LIMITS = { perMinute: 3, perDay: 10 } as const;

/** The lowest tier allowing more than `count` webhook endpoints (a 403's requiredTier), if any. */
export function tierWithMoreWebhooks(count: number): Tier | undefined {
  return TIERS.find((t) => TABLE[t].maxWebhooks > count);
}
