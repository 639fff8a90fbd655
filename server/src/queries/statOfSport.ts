/** The one rule for stat keys in a request: each must be in its sport's catalog (the contract's STAT_KEYS). */
import { isStatKey, type SportId, STAT_KEYS } from '@propsfeed/contract';
import { ApiError } from '../errors/apiError';

/** A 400 naming the stat keys not of `sport`, and the ones that are. */
export function assertStatsOfSport(sport: SportId, stats: readonly string[]): void {
  const unknown = stats.filter((s) => !isStatKey(sport, s));
  if (unknown.length === 0) return;
  const what = unknown.length === 1 ? `stat '${unknown[0]}'` : `stats ${unknown.map((s) => `'${s}'`).join(', ')}`;
  throw new ApiError('invalid_request', `unknown ${what} for ${sport} (known: ${STAT_KEYS[sport].join(', ')})`);
}
