/**
 * GET /props/results: the settled props of one UTC day, grouped per prop with each book's
 * closing line, result and the chances published at lock. The free tier sees yesterday and
 * earlier; pro and above see today's finals too.
 */
import {
  type ResultsResponse,
  type SettledBook,
  type SettledProp,
  SPORT_IDS,
  type SportId,
  STAT_KEYS,
} from '@propsfeed/contract';
import { assertRoute, assertSport } from '../auth/access';
import type { Caller } from '../auth/caller';
import { ApiError } from '../errors/apiError';
import type { SettledLock, SettlementReader } from '../history/settlement';
import { allowsRouteTier, allowsSport } from '../limits/policy';
import { utcDay } from '../odds';
import { RecentAnswers } from '../views/answers';
import { Prepared } from '../views/prepared';
import type { QueryDeps } from './deps';
import { playerFilterOf } from './players';
import { assertStatsOfSport } from './statOfSport';

/** Settled props change only when a game settles: an answer is read again after this long. */
export const SETTLED_ANSWER_MS = 10_000;

const DAY_MS = 86_400_000;

/** The sports a settled-props read covers: the one asked for (checked against the tier), or all the tier allows. */
export function settledSports(caller: Caller, sport: SportId | undefined, stat: string | undefined): SportId[] {
  if (sport !== undefined) {
    assertSport(caller, sport);
    if (stat !== undefined) assertStatsOfSport(sport, [stat]);
    return [sport];
  }
  const allowed = SPORT_IDS.filter((s) => allowsSport(caller.policy, s));
  if (stat === undefined) return allowed;
  const withStat = allowed.filter((s) => (STAT_KEYS[s] as readonly string[]).includes(stat));
  if (withStat.length === 0)
    throw new ApiError('invalid_request', `unknown stat '${stat}' in the sports of the ${caller.tier} tier`);
  return withStat;
}

const answersOf = RecentAnswers.per<SettlementReader, Prepared<ResultsResponse>>(SETTLED_ANSWER_MS, 256);

export function resultsQuery(
  deps: QueryDeps,
  caller: Caller,
  params: {
    date?: string | undefined;
    sport?: SportId | undefined;
    player?: string | undefined;
    stat?: string | undefined;
    limit?: number | undefined;
  },
  settlements: SettlementReader,
): Promise<Prepared<ResultsResponse>> {
  const nowMs = deps.now();
  const today = utcDay(nowMs);
  const pro = allowsRouteTier(caller.policy, 'pro');
  const date = params.date ?? (pro ? today : utcDay(nowMs - DAY_MS));
  if (date > today) throw new ApiError('invalid_request', `date ${date} is after today (${today}, UTC)`);
  if (date === today) assertRoute(caller, 'pro', "today's results (the free tier sees yesterday and earlier)");
  const sports = settledSports(caller, params.sport, params.stat);
  const limit = params.limit ?? 500;
  const player = params.player === undefined ? undefined : playerFilterOf(params.player);
  const key = `${date}|${sports.join(',')}|${params.stat ?? ''}|${player ?? ''}|${limit}`;
  return answersOf(settlements).getOrRead(key, nowMs, async () => {
    const locks = await settlements.settled({
      date,
      sports,
      ...(params.stat !== undefined ? { stat: params.stat } : {}),
    });
    const mine = player === undefined ? locks : locks.filter((l) => l.playerKey.split('|')[0] === player);
    const results = settledProps(mine);
    return Prepared.of<ResultsResponse>({
      date,
      sport: params.sport ?? null,
      count: Math.min(limit, results.length),
      total: results.length,
      results: results.slice(0, limit),
    });
  });
}

/** Locks (in start, game, player, stat, book order) grouped into one settled prop per game, player and stat. */
export function settledProps(locks: readonly SettledLock[]): SettledProp[] {
  const props: SettledProp[] = [];
  let key = '';
  for (const l of locks) {
    const k = `${l.gameId}|${l.playerKey}|${l.stat}`;
    if (k !== key) {
      key = k;
      props.push({
        eventId: l.gameId,
        sport: l.sport,
        homeTeam: l.homeTeam,
        awayTeam: l.awayTeam,
        startTime: new Date(l.startMs).toISOString(),
        player: l.player,
        stat: l.stat,
        finalValue: l.finalValue,
        books: [],
      });
    }
    const book: SettledBook = {
      source: l.book,
      closingLine: l.line,
      result: l.result,
      pOver: l.pOver,
      pUnder: l.pUnder,
      ...(l.pPush !== undefined ? { pPush: l.pPush } : {}),
      basis: l.basis,
    };
    (props[props.length - 1] as SettledProp).books.push(book);
  }
  return props;
}
