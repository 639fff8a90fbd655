/**
 * A PropsApi over a small fixed slate, for testing the tools without a server: it answers
 * like the real API (shapes, 403 with requiredTier, 404, 400 with candidates, 429 with
 * retryAfter) so every branch of the tool layer can be reached.
 */

import {
  type Game,
  type PlayerProp,
  PROBABILITY_METHODS,
  type PropsApi,
  type PropsApiErrorShape,
  type ResultsParams,
  type ScanRow,
  type SlipLeg,
  SPORTS,
  type SportId,
  type Tier,
  type TrackRecordParams,
} from '@propsfeed/contract';
import { lowestTierForSport } from '../../src/limits/policy';
import { COEFFICIENTS, coefficientsLabel } from '../../src/odds/coefficients';
import { bestEdge, cheapestEntries } from '../../src/odds/edge';
import { EntryBook, hitDistribution } from '../../src/odds/entries';
import { fairProbabilities } from '../../src/odds/fair';
import { scoreForecasts, TRACK_RECORD_NOTE } from '../../src/odds/record';

export class FixtureApiError extends Error implements PropsApiErrorShape {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { requiredTier?: string; retryAfter?: number; candidates?: string[] } = {},
  ) {
    super(message);
    Object.assign(this, extra);
  }
}

const FETCHED_AT = Date.parse('2026-11-22T18:00:00Z');

export const GAMES: Game[] = [
  {
    id: 'ud_2002',
    sport: 'nba',
    homeTeam: 'New York Knicks',
    awayTeam: 'Golden State Warriors',
    startTime: '2026-11-22T17:30:00Z',
    live: true,
    state: 'live',
    source: 'underdog',
    clock: 'Q3 4:12',
  },
  {
    id: 'pp_1001',
    sport: 'nba',
    homeTeam: 'Los Angeles Lakers',
    awayTeam: 'Boston Celtics',
    startTime: '2026-11-23T03:30:00Z',
    live: false,
    state: 'pre',
    source: 'prizepicks',
    aliases: ['ud_1001'],
  },
  {
    id: 'pp_3003',
    sport: 'mlb',
    homeTeam: 'Los Angeles Dodgers',
    awayTeam: 'New York Yankees',
    startTime: '2026-11-23T00:10:00Z',
    live: false,
    state: 'pre',
    source: 'prizepicks',
  },
];

const STATS: Record<SportId, string[]> = {
  nba: ['points', 'rebounds', 'assists', 'threes', 'pra'],
  wnba: [],
  mlb: ['strikeouts', 'hits'],
  nfl: [],
  nhl: [],
  ncaab: [],
  ncaaf: [],
  soccer: [],
  lol: [],
};

/** Six players per game and every stat of the sport: enough rows to overflow the text cap. */
function propsOf(game: Game): PlayerProp[] {
  const team = game.homeTeam.split(' ').pop();
  const players = [1, 2, 3, 4, 5, 6].map((n) => `${team} Player ${n}`);
  if (game.id === 'pp_1001') players[0] = 'LeBron James';
  return players.flatMap((player, p) =>
    STATS[game.sport].map((stat, s) => ({
      player,
      stat,
      line: 10.5 + p + s,
      overOdds: s % 2 === 0 ? -115 : 105,
      underOdds: s % 2 === 0 ? -105 : -125,
      bookCount: 2,
      ...(game.live
        ? { liveValue: p + s, gameClock: 'Q3 4:12', gameState: 'live' as const }
        : { gameState: 'pre' as const }),
    })),
  );
}

function rowOf(game: Game, prop: PlayerProp): ScanRow {
  const { id, sport, homeTeam, awayTeam, startTime, source } = game;
  return { ...prop, eventId: id, sport, homeTeam, awayTeam, startTime, source, fetchedAt: FETCHED_AT };
}

export interface FixtureApiOptions {
  tier: Tier;
  sports: SportId[];
  /** Calls allowed before every call answers 429. */
  callLimit?: number;
}

export function createFixtureApi(opts: FixtureApiOptions): PropsApi & { calls: number } {
  const allowed = (sport: SportId) => {
    if (!opts.sports.includes(sport)) {
      throw new FixtureApiError(403, 'sport_not_in_tier', `${sport} is not in the ${opts.tier} tier`, {
        requiredTier: 'pro',
      });
    }
  };
  const proRoute = (what: string) => {
    if (opts.tier === 'free') {
      throw new FixtureApiError(403, 'route_not_in_tier', `${what} is not in the free tier`, { requiredTier: 'pro' });
    }
  };
  const gamesOf = (sport: SportId) => GAMES.filter((g) => g.sport === sport);
  const api = {
    calls: 0,
    count() {
      api.calls++;
      if (opts.callLimit !== undefined && api.calls > opts.callLimit) {
        throw new FixtureApiError(429, 'rate_limited', 'more than 30 requests in a minute', { retryAfter: 42 });
      }
    },
    async sports() {
      api.count();
      return {
        sports: SPORTS.map((s) => ({
          id: s.id,
          name: s.name,
          enabled: opts.sports.includes(s.id),
          requiredTier: lowestTierForSport(s.id),
        })),
      };
    },
    async games({ sport = 'nba' as SportId } = {}) {
      api.count();
      allowed(sport);
      const games = gamesOf(sport);
      return { sport, count: games.length, games, delayed: opts.tier === 'free' };
    },
    async gameProps(eventId: string, params: { stats?: string | string[]; sport?: SportId } = {}) {
      api.count();
      const game = GAMES.find((g) => g.id === eventId || g.aliases?.includes(eventId));
      if (!game) throw new FixtureApiError(404, 'event_not_found', `no props for event ${eventId}`);
      allowed(game.sport);
      const stats = typeof params.stats === 'string' ? params.stats.split(',') : params.stats;
      const props = propsOf(game).filter((p) => !stats || stats.includes(p.stat));
      const { id, sport, homeTeam, awayTeam, startTime } = game;
      return {
        eventId: id,
        sport,
        homeTeam,
        awayTeam,
        startTime,
        props,
        sources: ['prizepicks', 'underdog'] as const,
        fetchedAt: FETCHED_AT,
        delayed: opts.tier === 'free',
      } as Awaited<ReturnType<PropsApi['gameProps']>>;
    },
    async scan({
      sport = 'nba' as SportId,
      stat,
      limit = 5000,
    }: {
      sport?: SportId;
      stat?: string;
      limit?: number;
    } = {}) {
      api.count();
      allowed(sport);
      const all = gamesOf(sport).flatMap((g) => propsOf(g).map((p) => rowOf(g, p)));
      const rows = all.filter((r) => !stat || r.stat === stat);
      const capped = rows.slice(0, limit);
      return { sport, stat: stat ?? null, count: capped.length, rows: capped, total: rows.length };
    },
    async me() {
      api.count();
      throw new FixtureApiError(500, 'internal_error', 'not used by the tools');
    },
    async playerProps({ name, sport }: { name: string; sport?: SportId }) {
      api.count();
      if (sport) allowed(sport);
      const games = GAMES.filter((g) => (sport ? g.sport === sport : opts.sports.includes(g.sport)));
      const rows = games.flatMap((g) => propsOf(g).map((p) => rowOf(g, p)));
      const players = [...new Set(rows.map((r) => r.player))].filter((p) =>
        p.toLowerCase().includes(name.toLowerCase()),
      );
      if (players.length > 1) {
        throw new FixtureApiError(400, 'invalid_request', `'${name}' matches several players`, {
          candidates: players.slice(0, 3),
        });
      }
      const player = players[0] ?? null;
      const mine = rows.filter((r) => r.player === player);
      return { query: name, player, count: mine.length, rows: mine };
    },
    async playerContext({ name, stat }: { name: string; stat?: string }) {
      api.count();
      if (name.toLowerCase() !== 'lebron james') throw new FixtureApiError(404, 'not_found', `no player '${name}'`);
      const stats = ['points', 'rebounds'].filter((s) => !stat || s === stat);
      return {
        player: 'LeBron James',
        sport: 'nba' as const,
        team: 'Los Angeles Lakers',
        stats: stats.map((s) => ({
          stat: s,
          line: 25.5,
          sampleN: 12,
          averages: { season: 26.25, last10: 27.1, last5: 28.4, home: 26, away: null },
          recentForm: [
            { date: '2026-11-20', opponent: 'PHX', home: true, value: 31, hit: true },
            { date: '2026-11-18', opponent: 'DEN', home: false, value: 22, hit: false },
          ],
          hitRate: 0.58,
          propsfeedProjection: {
            value: 27.3,
            sampleN: 12,
            method: 'weighted mean of last 10 games',
            marketKey: `nba:${s}`,
          },
        })),
      };
    },
    async propHistory({ eventId, player, stat }: { eventId: string; player: string; stat: string }) {
      api.count();
      proRoute('prop history');
      return {
        eventId,
        sport: 'nba' as const,
        player,
        stat,
        books: [
          {
            source: 'underdog' as const,
            opening: { at: '2026-11-22T12:00:00Z', line: 24.5, overOdds: -110, underOdds: -110 },
            current: { at: '2026-11-22T17:00:00Z', line: 26.5, overOdds: -120, underOdds: 100 },
            changes: [
              { at: '2026-11-22T15:00:00Z', line: 25.5, overOdds: -115, underOdds: -105 },
              { at: '2026-11-22T17:00:00Z', line: 26.5, overOdds: -120, underOdds: 100 },
            ],
          },
        ],
      };
    },
    async movement({
      sport = 'nba' as SportId,
      stat,
      since,
      limit = 50,
    }: {
      sport?: SportId;
      stat?: string;
      since?: string | Date;
      limit?: number;
    } = {}) {
      api.count();
      proRoute('line movement');
      allowed(sport);
      const game = gamesOf(sport)[0];
      const movers = game
        ? propsOf(game)
            .filter((p) => !stat || p.stat === stat)
            .slice(0, limit)
            .map((p) => ({
              eventId: game.id,
              sport,
              homeTeam: game.homeTeam,
              awayTeam: game.awayTeam,
              startTime: game.startTime,
              player: p.player,
              stat: p.stat,
              openLine: p.line - 1,
              currentLine: p.line,
              change: 1,
              direction: 'up' as const,
              books: [
                {
                  source: 'underdog' as const,
                  openLine: p.line - 1,
                  currentLine: p.line,
                  change: 1,
                  direction: 'up' as const,
                },
              ],
            }))
        : [];
      const sinceIso = since === undefined ? null : new Date(since).toISOString();
      return { sport, stat: stat ?? null, since: sinceIso, count: movers.length, movers };
    },
    async edges({ sport = 'nba' as SportId, limit = 5000 }: { sport?: SportId; limit?: number } = {}) {
      api.count();
      proRoute('edges');
      allowed(sport);
      const cheapest = cheapestEntries(new EntryBook().inEffect('2026-11-22'));
      const rows = gamesOf(sport)
        .flatMap((g) => propsOf(g).map((p) => rowOf(g, p)))
        .flatMap((row) => {
          const quotes = row.books
            ? row.books.map((b) => ({ ...b, updatedAt: 0 }))
            : [
                {
                  source: 'underdog' as const,
                  line: row.line,
                  overOdds: row.overOdds,
                  underOdds: row.underOdds,
                  updatedAt: 0,
                },
              ];
          const probabilities = fairProbabilities(quotes, { sport: row.sport, stat: row.stat, values: [] });
          const edge = bestEdge(probabilities, (book) => cheapest.get(book));
          return edge ? [{ ...row, probabilities, edge }] : [];
        })
        .sort((a, b) => b.edge.edge - a.edge.edge);
      const capped = rows.slice(0, limit);
      return {
        sport,
        stat: null,
        count: capped.length,
        rows: capped,
        total: rows.length,
        entry: null,
        minEdge: null,
        methods: PROBABILITY_METHODS,
      };
    },
    async evaluateSlip(legs: SlipLeg[]) {
      api.count();
      proRoute('slip evaluation');
      const dist = hitDistribution(legs.map(() => 0.6));
      const [power] = new EntryBook()
        .inEffect('2026-11-22')
        .filter((t) => t.kind === 'power' && t.picks === legs.length);
      const pays = (k: number) => power?.payouts.find((p) => p.hits === k)?.multiplier ?? 0;
      return {
        book: 'prizepicks' as const,
        legs: legs.map((l, i) => ({
          eventId: l.eventId ?? 'pp_8812345',
          player: l.player,
          stat: l.stat,
          side: l.side,
          line: 24.5,
          probability: 0.6,
          method: 'fixture',
          correlatedWith: legs.flatMap((_, j) => (j !== i ? [j] : [])),
        })),
        entries: power
          ? [
              {
                entry: power.id,
                name: power.name,
                kind: power.kind,
                breakeven: power.breakeven,
                winProbability: dist[legs.length] ?? 0,
                expectedReturn: dist.reduce((sum, q, k) => sum + q * pays(k), 0),
                hits: dist.map((q, k) => ({ hits: k, probability: q, multiplier: pays(k) })).reverse(),
              },
            ]
          : [],
        correlated: legs.length > 1,
        assumption: 'The legs are treated as independent (fixture).',
      };
    },
    async entries() {
      api.count();
      const asOf = new Date(FETCHED_AT).toISOString().slice(0, 10);
      return { asOf, entries: new EntryBook().inEffect(asOf) };
    },
    async results(params: ResultsParams = {}) {
      api.count();
      return { date: params.date ?? '2026-11-21', sport: params.sport ?? null, count: 0, total: 0, results: [] };
    },
    async trackRecord(params: TrackRecordParams = {}) {
      api.count();
      const forecasts = [
        { book: 'prizepicks' as const, date: '2026-11-21', pOver: 0.62, pUnder: 0.38, result: 'over' as const },
        { book: 'prizepicks' as const, date: '2026-11-21', pOver: 0.35, pUnder: 0.65, result: 'over' as const },
      ];
      return {
        sport: params.sport ?? null,
        stat: params.stat ?? null,
        since: params.since ?? null,
        method: params.method ?? null,
        ...scoreForecasts(forecasts, new EntryBook(), '2026-11-22'),
        note: TRACK_RECORD_NOTE,
        coefficients: coefficientsLabel(COEFFICIENTS),
      };
    },
  };
  return api;
}
