/**
 * The closed lists every package shares: sports, books, tiers, stat keys and error codes.
 * Numbers that belong to a tier (limits, delay) live in the server's policy module.
 */

export const SPORTS = [
  { id: 'nba', name: 'NBA Basketball' },
  { id: 'wnba', name: 'WNBA Basketball' },
  { id: 'mlb', name: 'MLB Baseball' },
  { id: 'nfl', name: 'NFL Football' },
  { id: 'nhl', name: 'NHL Hockey' },
  { id: 'ncaab', name: 'College Basketball' },
  { id: 'ncaaf', name: 'College Football' },
  { id: 'soccer', name: 'Soccer' },
  { id: 'lol', name: 'League of Legends' },
] as const;

export const SPORT_IDS = ['nba', 'wnba', 'mlb', 'nfl', 'nhl', 'ncaab', 'ncaaf', 'soccer', 'lol'] as const;
export type SportId = (typeof SPORT_IDS)[number];

export const DEFAULT_SPORT: SportId = 'nba';

/** The two books of the spec (book_a, book_b) and the prefix of their event ids. */
export const BOOKS = ['prizepicks', 'underdog'] as const;
export type Book = (typeof BOOKS)[number];
export const EVENT_ID_PREFIX: Record<Book, string> = { prizepicks: 'pp_', underdog: 'ud_' };
/** Each book's name as people write it (workings, entry type names, the board page). */
export const BOOK_NAMES: Record<Book, string> = { prizepicks: 'PrizePicks', underdog: 'Underdog' };

/** Tiers from the lowest to the highest: a later tier allows everything an earlier one does. */
export const TIERS = ['free', 'pro', 'sharp', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const GAME_STATES = ['pre', 'live', 'final'] as const;
export type GameState = (typeof GAME_STATES)[number];

/** The order of games everywhere: live first, then pre-game, then final (each then by start time). */
export const GAME_STATE_ORDER: Record<GameState, number> = { live: 0, pre: 1, final: 2 };

/**
 * The `state` filter of the board routes: one game state, or `all`. Absent, the scan, edges,
 * movers and player routes show the open games' props (pre and live); `/games` lists the open
 * games, then the games that ended within FINAL_GAMES_LISTED_HOURS.
 */
export const STATE_FILTERS = ['pre', 'live', 'final', 'all'] as const;
export type StateFilter = (typeof STATE_FILTERS)[number];

/**
 * How a scan's rows can be ordered before its limit: `line` highest first, `odds` best price
 * first (rows without odds last), `edge` best edge first (rows without one last), `books` most
 * books first, `player` A to Z. Ties keep the board's order.
 */
export const SCAN_SORTS = ['line', 'odds', 'edge', 'books', 'player'] as const;
export type ScanSort = (typeof SCAN_SORTS)[number];

/** How long `/games` keeps listing a finished game by default (as the books keep it up); `?state=final` shows it while the books post it. */
export const FINAL_GAMES_LISTED_HOURS = 3;

/** The NBA's and the WNBA's stat keys. */
const BASKETBALL_STATS = [
  'points',
  'rebounds',
  'assists',
  'threes',
  'pra',
  'pts_rebs',
  'pts_asts',
  'rebs_asts',
  'steals',
  'blocks',
  'blks_stls',
  'turnovers',
  'fantasy_points',
] as const;

/** Stat keys each sport may carry; adapters map book stat names onto these and skip the rest. */
export const STAT_KEYS = {
  nba: BASKETBALL_STATS,
  // The WNBA's books post the NBA's stats under the same names.
  wnba: BASKETBALL_STATS,
  ncaab: ['points', 'rebounds', 'assists', 'threes', 'pra', 'pts_rebs', 'pts_asts', 'rebs_asts'],
  mlb: [
    'strikeouts',
    'total_bases',
    'hits',
    'runs',
    'rbis',
    'hits_runs_rbis',
    'singles',
    'walks',
    'hitter_strikeouts',
    'hitter_fantasy_points',
    'pitcher_fantasy_points',
    'pitching_outs',
    'pitches_thrown',
    'hits_allowed',
    'walks_allowed',
    'earned_runs_allowed',
  ],
  nfl: [
    'passing_yards',
    'passing_tds',
    'pass_attempts',
    'completions',
    'interceptions',
    'rushing_yards',
    'rush_attempts',
    'receiving_yards',
    'receptions',
    'rush_rec_yards',
    'pass_rush_yards',
    'rush_rec_tds',
    'fantasy_points',
    'sacks',
    'tackles_assists',
    'field_goals_made',
    'kicking_points',
    'targets',
    'longest_reception',
    'longest_rush',
    'longest_completion',
  ],
  ncaaf: [
    'passing_yards',
    'passing_tds',
    'rushing_yards',
    'receiving_yards',
    'receptions',
    'rush_rec_yards',
    'pass_rush_yards',
    'fantasy_points',
  ],
  nhl: ['goals', 'assists', 'points', 'shots_on_goal', 'saves', 'goals_allowed', 'blocked_shots', 'hits'],
  soccer: [
    'goals',
    'assists',
    'shots',
    'shots_on_target',
    'passes',
    'tackles',
    'saves',
    'goals_assists',
    'clearances',
    'crosses',
    'interceptions',
  ],
  lol: ['kills_on_game_1', 'kills_on_games_1_2', 'assists_on_games_1_2', 'deaths_on_games_1_2'],
} as const satisfies Record<SportId, readonly string[]>;

export type StatKey = (typeof STAT_KEYS)[SportId][number];

const SPLIT =
  'settles on part of a game (a quarter, a half, the first plays); game logs hold whole games, so no projection or hit rate could judge it';

/**
 * Stats the books post that propsfeed leaves out on purpose, per sport: the book's stat name
 * (reduced as the adapters reduce names: lower case, runs of other characters "_") and why.
 * They are not counted as unmapped; any other stat without a key is, in /readyz.
 */
export const UNSUPPORTED_STATS: Partial<Record<SportId, Record<string, string>>> = {
  mlb: {
    fantasy_points:
      "Underdog's one name for hitters' and pitchers' fantasy points, on its own scoring table: it is neither PrizePicks' Hitter nor Pitcher Fantasy Score, so no key would compare like with like",
  },
  nfl: {
    yards_on_first_reception: SPLIT,
    receiving_yards_in_first_2_receptions: SPLIT,
    rush_yards_in_first_5_attempts: SPLIT,
    yards_on_first_rush_attempt: SPLIT,
    yards_on_first_pass_completion: SPLIT,
    completions_in_first_10_pass_attempts: SPLIT,
    quarters_with_1_reception: SPLIT,
    quarters_with_30_pass_yards: SPLIT,
    halves_with_100_pass_yards: SPLIT,
    completion_percentage: 'a rate, not a count: game logs sum counts over games',
    rush_yards_per_carry: 'a rate, not a count: game logs sum counts over games',
  },
};

/**
 * The MCP tools, by the names the spec gives them (the tools/list order). Each is one file,
 * server/src/mcp/tools/<name in camelCase>.ts, answering from the PropsApi methods it calls.
 */
export const MCP_TOOL_NAMES = [
  'list_sports',
  'list_games',
  'get_game_props',
  'scan_props',
  'find_game',
  'find_player_props',
  'get_player_context',
  'get_prop_history',
  'scan_movers',
  'find_edges',
  'evaluate_slip',
  'get_track_record',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/** Most rows one scan answers (GET /props `limit`, an enterprise key's scanLimit); a tier may cap lower. */
export const MAX_SCAN_LIMIT = 5000;
/** Most movers one movement answer lists (GET /props/movement `limit`), and how many when not asked. */
export const MAX_MOVERS_LIMIT = 500;
export const DEFAULT_MOVERS_LIMIT = 50;
/** The edges (probability − breakeven) the track record counts picks from. */
export const EDGE_THRESHOLDS = [0, 0.02, 0.05, 0.1] as const;
/** Most settled props one results answer lists (GET /props/results `limit`). */
export const MAX_RESULTS_LIMIT = 5000;
/** Most deliveries one webhook delivery log answer lists (GET /webhooks/{id}/deliveries `limit`). */
export const MAX_WEBHOOK_DELIVERIES_LIMIT = 100;

export function isStatKey(sport: SportId, stat: string): boolean {
  return (STAT_KEYS[sport] as readonly string[]).includes(stat);
}

/** The closed list of error codes, each with the one HTTP status it answers. */
export const ERROR_STATUS = {
  invalid_request: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  sport_not_in_tier: 403,
  route_not_in_tier: 403,
  live_not_in_tier: 403,
  host_not_allowed: 403,
  too_many_webhooks: 403,
  event_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  daily_quota_exceeded: 429,
  too_many_streams: 429,
  internal_error: 500,
  upstream_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** What each error code means and what to do about it: the API reference's error table. */
export const ERROR_MEANING = {
  invalid_request: 'A parameter or body field is malformed or out of range; the message names it.',
  missing_api_key: 'No `Authorization: Bearer <key>` header was sent.',
  invalid_api_key: 'The key is unknown or revoked.',
  sport_not_in_tier: "The sport is not in the key's tier; `requiredTier` names the lowest tier that has it.",
  route_not_in_tier: "The route is not in the key's tier; `requiredTier` names the lowest tier that has it.",
  live_not_in_tier: "Live lines are not in the key's tier; `requiredTier` names the lowest tier that has them.",
  host_not_allowed:
    'The `Host` or `Origin` of a request to `/mcp` is neither loopback nor allowed (`PROPS_ALLOWED_HOSTS`, `PROPS_ALLOWED_ORIGINS`): the guard against DNS rebinding.',
  too_many_webhooks:
    'The key already has as many webhook endpoints as its tier allows (pro 5, sharp 20, enterprise 100); delete one, or `requiredTier` names the tier that allows more.',
  event_not_found: 'No game with that event id has props on the board.',
  not_found: 'Nothing matches (a player or prop with no record, or an unknown path).',
  method_not_allowed: 'The path exists but not for this method; the `Allow` header lists the methods it serves.',
  payload_too_large: 'The request body is larger than the server accepts; the message names the limit.',
  unsupported_media_type: 'The request body is not JSON: send it as `Content-Type: application/json`.',
  rate_limited: 'Too many requests this minute; retry after `Retry-After` seconds.',
  daily_quota_exceeded: "The key's requests for the UTC day are spent; `Retry-After` says when the day turns.",
  too_many_streams:
    'The key already holds as many open streams as its tier allows (free 1, pro 3, sharp 10, enterprise 100); close one first.',
  internal_error: 'The server failed; the answer carries an `x-request-id` to report.',
  upstream_unavailable: 'A backing service (the store or Redis) is unavailable; retry shortly.',
} as const satisfies Record<ErrorCode, string>;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export function statusOfError(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

/**
 * The pick'em books' payout tables: catalog data, each with the day it took effect. An entry
 * of `picks` legs pays `multiplier` × stake for a number of legs won (`hits`); any other
 * count loses the stake. The server computes each table's per-leg breakeven from these
 * numbers (never typed in) and an operator can replace the whole list (PROPS_ENTRIES_FILE or
 * PROPS_ENTRIES) when a book changes its payouts.
 *
 * `effectiveFrom` is the first UTC day propsfeed applies a table; a later version of the same
 * id replaces it from its own day on, so results are always judged by the table in force.
 */
export const ENTRY_KINDS = ['power', 'flex', 'standard', 'insured'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** Fewest and most legs an entry (and a slip to evaluate) may have. */
export const MIN_ENTRY_PICKS = 2;
export const MAX_ENTRY_PICKS = 8;
/** Most legs a slip to evaluate may have (the largest entries the books offer). */
export const MAX_SLIP_LEGS = 6;

export interface EntryPayout {
  hits: number;
  multiplier: number;
}

export interface EntryTable {
  /** `<book>_<kind>_<picks>`, e.g. prizepicks_power_2. */
  id: string;
  book: Book;
  kind: EntryKind;
  picks: number;
  payouts: EntryPayout[];
  /** YYYY-MM-DD (UTC). */
  effectiveFrom: string;
}

const CATALOG_DAY = '2025-01-01';

function table(book: Book, kind: EntryKind, picks: number, payouts: [hits: number, multiplier: number][]): EntryTable {
  return {
    id: `${book}_${kind}_${picks}`,
    book,
    kind,
    picks,
    payouts: payouts.map(([hits, multiplier]) => ({ hits, multiplier })),
    effectiveFrom: CATALOG_DAY,
  };
}

export const ENTRY_TABLES: readonly EntryTable[] = [
  table('prizepicks', 'power', 2, [[2, 3]]),
  table('prizepicks', 'power', 3, [[3, 5]]),
  table('prizepicks', 'power', 4, [[4, 10]]),
  table('prizepicks', 'flex', 3, [
    [3, 2.25],
    [2, 1.25],
  ]),
  table('prizepicks', 'flex', 4, [
    [4, 5],
    [3, 1.5],
  ]),
  table('prizepicks', 'flex', 5, [
    [5, 10],
    [4, 2],
    [3, 0.4],
  ]),
  table('prizepicks', 'flex', 6, [
    [6, 25],
    [5, 2],
    [4, 0.4],
  ]),
  table('underdog', 'standard', 2, [[2, 3]]),
  table('underdog', 'standard', 3, [[3, 6]]),
  table('underdog', 'standard', 4, [[4, 10]]),
  table('underdog', 'standard', 5, [[5, 20]]),
  table('underdog', 'insured', 3, [
    [3, 3],
    [2, 1],
  ]),
  table('underdog', 'insured', 4, [
    [4, 6],
    [3, 1.5],
  ]),
  table('underdog', 'insured', 5, [
    [5, 10],
    [4, 2.5],
  ]),
];
