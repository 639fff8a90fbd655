/**
 * GET /props/track-record: the service's public scorecard, from the store only: every settled
 * (prop, book) whose chances were published at lock, scored (odds/record.ts).
 */
import type { ProbabilityBasis, SportId, TrackRecordResponse } from '@propsfeed/contract';
import type { Caller } from '../auth/caller';
import { ApiError } from '../errors/apiError';
import type { SettlementReader } from '../history/settlement';
import { utcDay } from '../odds';
import { COEFFICIENTS, coefficientsLabel } from '../odds/coefficients';
import { scoreForecasts, TRACK_RECORD_NOTE } from '../odds/record';
import { RecentAnswers } from '../views/answers';
import { Prepared } from '../views/prepared';
import type { QueryDeps } from './deps';
import { entryBookOf } from './entries';
import { SETTLED_ANSWER_MS, settledSports } from './results';

const answersOf = RecentAnswers.per<SettlementReader, Prepared<TrackRecordResponse>>(SETTLED_ANSWER_MS, 256);

export function trackRecordQuery(
  deps: QueryDeps,
  caller: Caller,
  params: {
    sport?: SportId | undefined;
    stat?: string | undefined;
    since?: string | undefined;
    method?: Exclude<ProbabilityBasis, 'none' | 'live'> | undefined;
  },
  settlements: SettlementReader,
): Promise<Prepared<TrackRecordResponse>> {
  const nowMs = deps.now();
  const sports = settledSports(caller, params.sport, params.stat);
  const today = utcDay(nowMs);
  // As results refuses a day after today: a since in the future can only be a mistake.
  if (params.since !== undefined && params.since > today) {
    throw new ApiError('invalid_request', `since ${params.since} is after today (${today}, UTC)`);
  }
  const key = `${today}|${sports.join(',')}|${params.stat ?? ''}|${params.since ?? ''}|${params.method ?? ''}`;
  return answersOf(settlements).getOrRead(key, nowMs, async () => {
    const locks = await settlements.settled({
      sports,
      withProbability: true,
      ...(params.stat !== undefined ? { stat: params.stat } : {}),
      ...(params.since !== undefined ? { sinceDate: params.since } : {}),
      ...(params.method !== undefined ? { basis: params.method } : {}),
    });
    return Prepared.of<TrackRecordResponse>({
      sport: params.sport ?? null,
      stat: params.stat ?? null,
      since: params.since ?? null,
      method: params.method ?? null,
      ...scoreForecasts(locks, entryBookOf(deps), today),
      note: TRACK_RECORD_NOTE,
      coefficients: coefficientsLabel(deps.coefficients ?? COEFFICIENTS),
    });
  });
}
