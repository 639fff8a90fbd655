/** Realistic examples of every resource of the spec, for contract tests and as documentation. */
export const sport = { id: 'nba', name: 'NBA Basketball', enabled: true, requiredTier: 'free' };

export const game = {
  id: 'pp_8812345',
  sport: 'nba',
  homeTeam: 'Denver Nuggets',
  awayTeam: 'Los Angeles Lakers',
  startTime: '2026-11-22T02:00:00.000Z',
  live: true,
  state: 'live',
  source: 'prizepicks',
  aliases: ['ud_112233'],
  score: { home: 61, away: 54 },
  clock: 'Q3 4:12',
};

export const playerProp = {
  player: 'Nikola Jokić',
  stat: 'pra',
  line: 48.5,
  overOdds: -115,
  underOdds: -105,
  bookCount: 2,
  photoUrl: 'https://example.com/jokic.png',
  playerId: 'pp_player_12345',
  liveValue: 31,
  gameClock: 'Q3 4:12',
  gameState: 'live',
  books: [
    { source: 'prizepicks', line: 48.5 },
    { source: 'underdog', line: 48.5, overOdds: -115, underOdds: -105 },
  ],
};

export const propsResult = {
  eventId: 'pp_8812345',
  sport: 'nba',
  homeTeam: 'Denver Nuggets',
  awayTeam: 'Los Angeles Lakers',
  startTime: '2026-11-22T02:00:00.000Z',
  props: [playerProp],
  sources: ['prizepicks', 'underdog'],
  fetchedAt: 1795312800000,
  delayed: false,
};

export const scanRow = {
  ...playerProp,
  eventId: 'pp_8812345',
  sport: 'nba',
  homeTeam: 'Denver Nuggets',
  awayTeam: 'Los Angeles Lakers',
  startTime: '2026-11-22T02:00:00.000Z',
  source: 'prizepicks',
  fetchedAt: 1795312800000,
  propsfeedProjection: {
    value: 51.2,
    sampleN: 10,
    method: 'exponentially weighted mean of last 10 games',
    marketKey: 'nba:pra',
  },
};

export const scanResponse = { sport: 'nba', stat: 'pra', count: 1, rows: [scanRow], total: 1 };

export const keyInfo = {
  keyPrefix: 'pf_a1B2c',
  tier: 'pro',
  label: 'my laptop',
  limits: { requestsPerMinute: 120, requestsPerDay: 20000, realtime: true, sports: ['nba', 'mlb'], scanLimit: 1000 },
  usage: { today: 42, dailyRemaining: 19958 },
};

export const apiError = { error: 'invalid_api_key', message: 'key is invalid, revoked or inactive' };
