/** API answers for the CLI tests, shaped by the contract (checked by the type annotations). */

import type {
  EdgesResponse,
  EntriesResponse,
  GamesResponse,
  KeyInfo,
  MovementResponse,
  PlayerContextResponse,
  PlayerPropsResponse,
  PropHistoryResponse,
  PropsResult,
  ResultsResponse,
  ScanResponse,
  ScanRow,
  SlipEvaluation,
  SportsResponse,
  TrackRecordResponse,
} from '@propsfeed/contract';
import { PROBABILITY_METHODS } from '@propsfeed/contract';

export const sports: SportsResponse = {
  sports: [
    { id: 'nba', name: 'NBA Basketball', enabled: true, requiredTier: 'free' },
    { id: 'mlb', name: 'MLB Baseball', enabled: false, requiredTier: 'pro' },
  ],
};

export const games: GamesResponse = {
  sport: 'nba',
  count: 5,
  games: [
    {
      id: 'pp_8812345',
      sport: 'nba',
      homeTeam: 'Denver Nuggets',
      awayTeam: 'Los Angeles Lakers',
      startTime: '2026-11-21T23:10:00.000Z',
      live: true,
      state: 'live',
      source: 'prizepicks',
      aliases: ['ud_112233'],
      score: { home: 61, away: 54 },
      clock: 'Q3 4:12',
    },
    {
      id: 'ud_112240',
      sport: 'nba',
      homeTeam: 'Boston Celtics',
      awayTeam: 'Miami Heat',
      startTime: '2026-11-22T02:00:00.000Z',
      live: false,
      state: 'pre',
      source: 'underdog',
    },
    {
      id: 'pp_8812399',
      sport: 'nba',
      homeTeam: 'Golden State Warriors',
      awayTeam: 'Phoenix Suns',
      startTime: '2026-11-23T03:30:00.000Z',
      live: false,
      state: 'pre',
      source: 'prizepicks',
      aliases: ['ud_112250'],
    },
    {
      id: 'ud_112201',
      sport: 'nba',
      homeTeam: 'New York Knicks',
      awayTeam: 'Chicago Bulls',
      startTime: '2026-11-21T21:00:00.000Z',
      live: false,
      state: 'final',
      source: 'underdog',
      score: { home: 104, away: 98 },
    },
    {
      id: 'ud_112202',
      sport: 'nba',
      homeTeam: 'Utah Jazz',
      awayTeam: 'Orlando Magic',
      startTime: '2026-11-21T21:30:00.000Z',
      live: false,
      state: 'final',
      source: 'underdog',
    },
  ],
};

export const gameProps: PropsResult = {
  eventId: 'pp_8812345',
  sport: 'nba',
  homeTeam: 'Denver Nuggets',
  awayTeam: 'Los Angeles Lakers',
  startTime: '2026-11-21T23:10:00.000Z',
  sources: ['prizepicks', 'underdog'],
  fetchedAt: Date.parse('2026-11-21T23:59:30.000Z'),
  delayed: false,
  props: [
    {
      player: 'LeBron James',
      stat: 'points',
      line: 25.5,
      overOdds: 110,
      underOdds: -135,
      bookCount: 2,
      liveValue: 14,
      gameClock: 'Q3 4:12',
      gameState: 'live',
    },
    { player: 'Nikola Jokić', stat: 'pra', line: 48.5, bookCount: 1, liveValue: 31, gameState: 'live' },
  ],
};

const row = (over: Partial<ScanRow>): ScanRow => ({
  player: 'Jayson Tatum',
  team: 'Boston Celtics',
  stat: 'points',
  line: 27.5,
  bookCount: 2,
  eventId: 'ud_112240',
  sport: 'nba',
  homeTeam: 'Boston Celtics',
  awayTeam: 'Miami Heat',
  startTime: '2026-11-22T02:00:00.000Z',
  source: 'underdog',
  gameState: 'pre',
  ...over,
});

export const scan: ScanResponse = {
  sport: 'nba',
  stat: 'points',
  count: 3,
  total: 412,
  rows: [
    row({
      player: 'LeBron James',
      team: 'Los Angeles Lakers',
      line: 25.5,
      overOdds: 110,
      underOdds: -135,
      eventId: 'pp_8812345',
      homeTeam: 'Denver Nuggets',
      awayTeam: 'Los Angeles Lakers',
      startTime: '2026-11-21T23:10:00.000Z',
      source: 'prizepicks',
      gameState: 'live',
      gameClock: 'Q3 4:12',
      liveValue: 14,
    }),
    row({
      overOdds: -120,
      underOdds: -105,
      propsfeedProjection: {
        value: 28.4,
        sampleN: 10,
        method: 'exponentially weighted mean of last 10 games',
        marketKey: 'nba:points',
      },
    }),
    row({ player: 'Bam Adebayo', team: 'Miami Heat', line: 16.5, bookCount: 1 }),
  ],
};

/** A prop the books disagree on: PrizePicks 4.5, Underdog 5 (-115/-105), its edge on PrizePicks 4.5. */
export const disagreeing: ScanRow = row({
  player: 'Tariq Pitman',
  team: 'New York Knicks',
  stat: 'rebounds',
  line: 5,
  overOdds: -115,
  underOdds: -105,
  eventId: 'ud_112260',
  homeTeam: 'Orlando Magic',
  awayTeam: 'New York Knicks',
  books: [
    { source: 'prizepicks', line: 4.5 },
    { source: 'underdog', line: 5, overOdds: -115, underOdds: -105 },
  ],
  edge: {
    source: 'prizepicks',
    line: 4.5,
    side: 'over',
    probability: 0.5812,
    entry: 'prizepicks_power_2',
    breakeven: 0.5774,
    edge: 0.0038,
    workings:
      'Underdog 5 -115/-105 de-vigged (margin 4.3 %) reads market 5.09; mean 5.2 = 0.8 × market 5.09 + 0.15 × season 5.62 + 0.05 × form 5.4 (40 games); negative binomial mean 5.2 variance 6.12; simulated coefficients; so over 4.5 at PrizePicks wins 58.1 % of the time it does not push, against the prizepicks_power_2 breakeven of 57.7 %: edge +0.4 points.',
  },
});

export const pitman: PlayerPropsResponse = {
  query: 'tariq pitman',
  player: 'Tariq Pitman',
  count: 1,
  rows: [disagreeing],
};

export const me: KeyInfo = {
  keyPrefix: 'pf_a1B2c',
  tier: 'pro',
  label: 'my laptop',
  limits: {
    requestsPerMinute: 120,
    requestsPerDay: 20000,
    realtime: true,
    sports: ['nba', 'mlb'],
    scanLimit: 1000,
    liveLines: false,
    delaySeconds: 0,
  },
  usage: { today: 15000, dailyRemaining: 5000 },
};

export const playerProps: PlayerPropsResponse = {
  query: 'tatum',
  player: 'Jayson Tatum',
  count: 1,
  rows: [scan.rows[1] as ScanRow],
};

export const context: PlayerContextResponse = {
  player: 'Jayson Tatum',
  sport: 'nba',
  team: 'Boston Celtics',
  stats: [
    {
      stat: 'points',
      line: 27.5,
      sampleN: 12,
      averages: { season: 27.9, last10: 28.35, last5: 30.2, home: 29, away: 26.75 },
      recentForm: [
        { date: '2026-11-20', opponent: 'Miami Heat', home: true, value: 31, hit: true },
        { date: '2026-11-18', opponent: 'New York Knicks', home: false, value: 22, hit: false },
      ],
      hitRate: 0.5833,
      propsfeedProjection: {
        value: 28.4,
        sampleN: 10,
        method: 'exponentially weighted mean of last 10 games',
        marketKey: 'nba:points',
      },
    },
    {
      stat: 'rebounds',
      line: null,
      sampleN: 0,
      averages: { season: null, last10: null, last5: null, home: null, away: null },
      recentForm: [],
      hitRate: null,
    },
  ],
};

export const history: PropHistoryResponse = {
  eventId: 'ud_112240',
  sport: 'nba',
  player: 'Jayson Tatum',
  stat: 'points',
  books: [
    {
      source: 'underdog',
      opening: { at: '2026-11-21T15:00:00.000Z', line: 26.5, overOdds: -115, underOdds: -115 },
      current: { at: '2026-11-21T22:40:00.000Z', line: 27.5, overOdds: -120, underOdds: -105 },
      changes: [
        { at: '2026-11-21T15:00:00.000Z', line: 26.5, overOdds: -115, underOdds: -115 },
        { at: '2026-11-21T18:20:00.000Z', line: 27, overOdds: -110, underOdds: -110 },
        { at: '2026-11-21T22:40:00.000Z', line: 27.5, overOdds: -120, underOdds: -105 },
      ],
    },
  ],
};

export const movers: MovementResponse = {
  sport: 'nba',
  stat: null,
  since: null,
  count: 2,
  movers: [
    {
      eventId: 'ud_112240',
      sport: 'nba',
      homeTeam: 'Boston Celtics',
      awayTeam: 'Miami Heat',
      startTime: '2026-11-22T02:00:00.000Z',
      player: 'Jayson Tatum',
      stat: 'points',
      openLine: 26.5,
      currentLine: 27.5,
      change: 1,
      direction: 'up',
      oddsChange: 15,
      books: [{ source: 'underdog', openLine: 26.5, currentLine: 27.5, change: 1, direction: 'up' }],
    },
    {
      eventId: 'pp_8812345',
      sport: 'nba',
      homeTeam: 'Denver Nuggets',
      awayTeam: 'Los Angeles Lakers',
      startTime: '2026-11-21T23:10:00.000Z',
      player: 'Nikola Jokić',
      stat: 'pra',
      openLine: 49.5,
      currentLine: 48.5,
      change: -1,
      direction: 'down',
      books: [{ source: 'prizepicks', openLine: 49.5, currentLine: 48.5, change: -1, direction: 'down' }],
    },
  ],
};

export const entries: EntriesResponse = {
  asOf: '2026-11-22',
  entries: [
    {
      id: 'prizepicks_power_2',
      name: 'PrizePicks 2-pick Power',
      book: 'prizepicks',
      kind: 'power',
      picks: 2,
      payouts: [{ hits: 2, multiplier: 3 }],
      effectiveFrom: '2025-01-01',
      breakeven: 0.5773502691896257,
    },
    {
      id: 'prizepicks_flex_5',
      name: 'PrizePicks 5-pick Flex',
      book: 'prizepicks',
      kind: 'flex',
      picks: 5,
      payouts: [
        { hits: 5, multiplier: 10 },
        { hits: 4, multiplier: 2 },
        { hits: 3, multiplier: 0.4 },
      ],
      effectiveFrom: '2025-01-01',
      breakeven: 0.542525377736274,
    },
    {
      id: 'underdog_insured_3',
      name: 'Underdog 3-pick Insured',
      book: 'underdog',
      kind: 'insured',
      picks: 3,
      payouts: [
        { hits: 3, multiplier: 3 },
        { hits: 2, multiplier: 1 },
      ],
      effectiveFrom: '2025-01-01',
      breakeven: 0.5773502691896257,
    },
  ],
};

export const edges: EdgesResponse = {
  sport: 'nba',
  stat: null,
  count: 2,
  total: 14,
  delayed: false,
  entry: null,
  minEdge: null,
  methods: PROBABILITY_METHODS,
  rows: [
    {
      ...row({}),
      edge: {
        source: 'prizepicks',
        line: 27.5,
        side: 'over',
        probability: 0.562,
        entry: 'prizepicks_flex_6',
        breakeven: 0.5421,
        edge: 0.0199,
        workings:
          'line 27.5 unpriced reads market 27.5; mean 28.4 = 0.7 × market 27.5 + 0.2 × season 30.1 + 0.1 × form 31.2 (38 games); normal mean 28.4 sd 6.2 cc; simulated coefficients; so over 27.5 at PrizePicks wins 56.2 % of the time it does not push, against the prizepicks_flex_6 breakeven of 54.2 %: edge +2 points.',
      },
    },
    {
      ...row({ player: 'Jaylen Brown', line: 22.5 }),
      edge: {
        source: 'underdog',
        line: 22.5,
        side: 'under',
        probability: 0.5108,
        entry: 'underdog_insured_5',
        breakeven: 0.5475,
        edge: -0.0367,
        workings:
          'line 22.5 unpriced reads market 22.5; mean 22.3 = 0.75 × market 22.5 + 0.2 × season 21.8 + 0.05 × form 21.6 (41 games); normal mean 22.3 sd 5.9 cc; simulated coefficients; so under 22.5 at Underdog wins 51.1 % of the time it does not push, against the underdog_insured_5 breakeven of 54.8 %: edge -3.7 points.',
      },
    },
  ],
};

export const slip: SlipEvaluation = {
  book: 'prizepicks',
  legs: [
    {
      eventId: 'pp_1002',
      player: 'Nikola Jokić',
      stat: 'rebounds',
      side: 'over',
      line: 12.5,
      probability: 0.562,
      method: "Underdog's prices at 12.5 de-vigged",
      correlatedWith: [1],
    },
    {
      eventId: 'pp_1002',
      player: 'Nikola Jokić',
      stat: 'pra',
      side: 'over',
      line: 48.5,
      probability: 0.5427,
      method: "Underdog's prices at 48.5 de-vigged",
      correlatedWith: [0],
    },
  ],
  entries: [
    {
      entry: 'prizepicks_power_2',
      name: 'PrizePicks 2-pick Power',
      kind: 'power',
      breakeven: 0.5774,
      winProbability: 0.305,
      expectedReturn: 0.915,
      hits: [
        { hits: 2, probability: 0.305, multiplier: 3 },
        { hits: 1, probability: 0.4947, multiplier: 0 },
        { hits: 0, probability: 0.2003, multiplier: 0 },
      ],
    },
  ],
  correlated: true,
  assumption: 'The legs are treated as independent. Some legs share a game.',
};

export const results: ResultsResponse = {
  date: '2026-11-21',
  sport: null,
  count: 2,
  total: 3,
  results: [
    {
      eventId: 'pp_1002',
      sport: 'nba',
      homeTeam: 'Denver Nuggets',
      awayTeam: 'Golden State Warriors',
      startTime: '2026-11-21T02:00:00.000Z',
      player: 'Nikola Jokić',
      stat: 'rebounds',
      finalValue: 13,
      books: [
        { source: 'prizepicks', closingLine: 12.5, result: 'over', pOver: 0.562, pUnder: 0.438, basis: 'prices' },
        {
          source: 'underdog',
          closingLine: 13,
          result: 'push',
          pOver: 0.49,
          pUnder: 0.41,
          pPush: 0.1,
          basis: 'prices_moved',
        },
      ],
    },
    {
      eventId: 'pp_1002',
      sport: 'nba',
      homeTeam: 'Denver Nuggets',
      awayTeam: 'Golden State Warriors',
      startTime: '2026-11-21T02:00:00.000Z',
      // A stored name that would steer a terminal: printed escaped.
      player: 'Stephen\u001b[31m Curry',
      stat: 'threes',
      finalValue: 3,
      books: [{ source: 'prizepicks', closingLine: 4.5, result: 'under', pOver: null, pUnder: null, basis: 'none' }],
    },
  ],
};

const bin = (i: number, count: number, predicted: number | null, observed: number | null) => ({
  from: i / 10,
  to: (i + 1) / 10,
  count,
  predicted,
  observed,
});
const r4 = (v: number) => Math.round(v * 10_000) / 10_000;
/** The 95 % Wilson interval, as the server computes it (server/src/odds/record.ts). */
const wilson = (hits: number, n: number) => {
  if (n === 0) return null;
  const z = 1.959963984540054;
  const p = hits / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { low: r4(centre - half), high: r4(centre + half) };
};
const edgeRow = (minEdge: number, picks: number, hits: number, pushes: number) => ({
  entry: 'prizepicks_power_2',
  name: 'PrizePicks 2-pick Power',
  book: 'prizepicks' as const,
  breakeven: 0.5774,
  minEdge,
  picks,
  hits,
  pushes,
  hitRate: picks > 0 ? Math.round((hits / picks) * 10_000) / 10_000 : null,
  roi: picks > 0 ? Math.round(((hits / picks) * 1.7320508 - 1) * 10_000) / 10_000 : null,
  hitRateInterval: wilson(hits, picks),
  roiInterval: ((w) => (w ? { low: r4(w.low * 1.7320508 - 1), high: r4(w.high * 1.7320508 - 1) } : null))(
    wilson(hits, picks),
  ),
});

export const record: TrackRecordResponse = {
  sport: 'nba',
  stat: null,
  since: null,
  method: null,
  count: 1240,
  pushes: 96,
  brier: 0.2451,
  logLoss: 0.6828,
  calibration: [
    bin(0, 0, null, null),
    bin(1, 12, 0.1583, 0.1667),
    bin(2, 64, 0.2588, 0.3125),
    bin(3, 186, 0.3597, 0.4086),
    bin(4, 402, 0.4521, 0.4701),
    bin(5, 377, 0.5466, 0.5305),
    bin(6, 140, 0.6421, 0.6071),
    bin(7, 44, 0.7389, 0.6818),
    bin(8, 15, 0.8344, 0.8),
    bin(9, 0, null, null),
  ],
  ece: 0.0321,
  market: {
    count: 880,
    brier: 0.2433,
    logLoss: 0.6795,
    ece: 0.0158,
    calibration: [
      bin(0, 0, null, null),
      bin(1, 0, null, null),
      bin(2, 21, 0.2712, 0.2857),
      bin(3, 160, 0.3668, 0.3875),
      bin(4, 310, 0.4562, 0.4484),
      bin(5, 297, 0.5371, 0.5286),
      bin(6, 84, 0.6329, 0.6548),
      bin(7, 8, 0.7144, 0.75),
      bin(8, 0, null, null),
      bin(9, 0, null, null),
    ],
    ours: { brier: 0.2462, logLoss: 0.6851, ece: 0.0297 },
  },
  edges: [edgeRow(0, 300, 181, 20), edgeRow(0.02, 210, 131, 14), edgeRow(0.05, 96, 61, 7), edgeRow(0.1, 0, 0, 0)],
  note: 'Chances the service published when each game started, scored against the recorded results. They are estimates, not promises.',
  coefficients: 'simulated, fitted on seed 20261122, 2026-10-25..2026-10-31, 27676 finals',
};
