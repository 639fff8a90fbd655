/**
 * The model's fitted blends and spreads (odds/model.ts), one set per kind of market:
 *
 * - SIMULATED_COEFFICIENTS, served on the simulator, as `pnpm backtest --fit --from 2026-10-25
 *   --days 7` printed them: fitted on the week before any day the backtest scores by default
 *   (its window starts 2026-11-01), so the backtest never judges the model on the days it was
 *   fitted on. `liveScale` was fitted the same way on the same week's live snapshots.
 * - REAL_COEFFICIENTS, served when the books are real (PROPS_BOOKS), as `pnpm backtest --real
 *   ../shared/real --fit-until 2024-10-01` printed them: fitted on the first real season and
 *   scored on the second.
 *
 * Blends per band of the market mean (MEAN_BANDS: below 1.5, 1.5–4, 4–12, above): the season's
 * and form's full weights and their shrinkage constants (weight · n / (n + k) at n games).
 */
import type { Coefficients } from './model';

export const SIMULATED_COEFFICIENTS: Coefficients = {
  kind: 'simulated',
  priced: [
    { season: 0.2616, form: 0, kSeason: 1, kForm: 1 },
    { season: 0.4392, form: 0, kSeason: 1, kForm: 1 },
    { season: 0.9555, form: 0, kSeason: 8, kForm: 1 },
    { season: 0.8271, form: 0, kSeason: 1, kForm: 1 },
  ],
  unpriced: [
    { season: 0.8512, form: 0, kSeason: 1, kForm: 1 },
    { season: 0.7329, form: 0, kSeason: 1, kForm: 1 },
    { season: 0.5222, form: 0, kSeason: 1, kForm: 1 },
    { season: 0.9305, form: 0, kSeason: 16, kForm: 1 },
  ],
  dispersion: {
    'nba|assists': 0.0509,
    nba: 0.0309,
    'nba|blks_stls': 0.0323,
    'nba|points': 0.0501,
    'nba|pra': 0.0229,
    'nba|pts_asts': 0.0267,
    'nba|rebounds': 0.036,
    'nba|threes': 0.0747,
    'nba|pts_rebs': 0.0324,
    'nhl|hits': 0.0674,
    nhl: 0.0512,
    'nhl|points': 0.0736,
    'nhl|shots_on_goal': 0.068,
    'nhl|goals': 0.005,
    'nhl|blocked_shots': 0.1172,
    'lol|assists_on_games_1_2': 0.0232,
    lol: 0.0303,
    'lol|kills_on_game_1': 0.0638,
    'lol|kills_on_games_1_2': 0.0462,
    'wnba|assists': 0.0642,
    wnba: 0.0192,
    'wnba|points': 0.0306,
    'wnba|pra': 0.0133,
    'wnba|pts_rebs': 0.017,
    'wnba|rebounds': 0.039,
    'wnba|pts_asts': 0.018,
    'wnba|threes': 0.0284,
    'mlb|hits': 0.005,
    mlb: 0.0191,
    'mlb|hitter_strikeouts': 0.0484,
    'mlb|rbis': 0.005,
    'mlb|runs': 0.0826,
    'mlb|total_bases': 0.0434,
    'mlb|hits_runs_rbis': 0.005,
    'mlb|singles': 0.005,
    'mlb|pitches_thrown': 0.0182,
    'mlb|strikeouts': 0.1153,
    ncaaf: 0.0931,
    'ncaab|assists': 0.0324,
    ncaab: 0.0261,
    'ncaab|points': 0.0416,
    'ncaab|pts_asts': 0.0292,
    'ncaab|rebounds': 0.0495,
    'ncaab|threes': 0.0459,
    'ncaab|pra': 0.0173,
    'ncaab|pts_rebs': 0.0249,
    'ncaab|rebs_asts': 0.0115,
    soccer: 0.0403,
    'soccer|passes': 0.0404,
    'soccer|shots': 0.0391,
    nfl: 0.0636,
  },
  inherent: {
    'nba|assists': 0.0382,
    nba: 0.0267,
    'nba|blks_stls': 0.0327,
    'nba|points': 0.0408,
    'nba|pra': 0.0189,
    'nba|pts_asts': 0.0272,
    'nba|rebounds': 0.0406,
    'nba|threes': 0.0646,
    'nba|pts_rebs': 0.0268,
    'nhl|hits': 0.0428,
    nhl: 0.0448,
    'nhl|points': 0.0115,
    'nhl|shots_on_goal': 0.0519,
    'nhl|goals': 0.0358,
    'nhl|blocked_shots': 0.0117,
    'lol|assists_on_games_1_2': 0.0354,
    lol: 0.0357,
    'lol|kills_on_game_1': 0.0473,
    'lol|kills_on_games_1_2': 0.0326,
    'wnba|assists': 0.0351,
    wnba: 0.0235,
    'wnba|points': 0.0378,
    'wnba|pra': 0.0169,
    'wnba|pts_rebs': 0.0218,
    'wnba|rebounds': 0.0329,
    'wnba|pts_asts': 0.0257,
    'wnba|threes': 0.0628,
    'mlb|hits': 0.0431,
    mlb: 0.0163,
    'mlb|hitter_strikeouts': 0.0575,
    'mlb|rbis': 0,
    'mlb|runs': 0.0609,
    'mlb|total_bases': 0.0253,
    'mlb|hits_runs_rbis': 0.006,
    'mlb|singles': 0.0526,
    'mlb|pitches_thrown': 0.0151,
    'mlb|strikeouts': 0.053,
    ncaaf: 0.0693,
    'ncaab|assists': 0.0425,
    ncaab: 0.0239,
    'ncaab|points': 0.0369,
    'ncaab|pts_asts': 0.0252,
    'ncaab|rebounds': 0.04,
    'ncaab|threes': 0.0404,
    'ncaab|pra': 0.017,
    'ncaab|pts_rebs': 0.0215,
    'ncaab|rebs_asts': 0.0413,
    soccer: 0.0434,
    'soccer|passes': 0.0434,
    'soccer|shots': 0.0376,
    nfl: 0.0691,
  },
  liveScale: 0.983,
  fittedOn: 'seed 20261122, 2026-10-25..2026-10-31, 27676 finals',
  withheld: {},
};

export const REAL_COEFFICIENTS: Coefficients = {
  kind: 'real',
  priced: [
    { season: 0, form: 0, kSeason: 1, kForm: 1 },
    { season: 0, form: 0, kSeason: 1, kForm: 1 },
    { season: 0.0019, form: 0.0644, kSeason: 1, kForm: 1 },
    { season: 0.0215, form: 0.092, kSeason: 8, kForm: 12 },
  ],
  unpriced: [
    { season: 0, form: 0, kSeason: 1, kForm: 1 },
    { season: 0, form: 0, kSeason: 1, kForm: 1 },
    { season: 0, form: 0, kSeason: 1, kForm: 1 },
    { season: 0, form: 0, kSeason: 1, kForm: 1 },
  ],
  // The real set holds one stat (NBA PRA): the spreads of the others are the simulator's fit.
  dispersion: { ...SIMULATED_COEFFICIENTS.dispersion, 'nba|pra': 0.0737, nba: 0.0737 },
  inherent: { ...SIMULATED_COEFFICIENTS.inherent, 'nba|pra': 0.0868, nba: 0.0868 },
  liveScale: 1,
  fittedOn: 'Real NBA player props with their outcomes (PRA, 2023-24 and 2024-25), 2023-10-24..2024-05-19, 5076 finals',
  withheld: {
    prices:
      "worse than the books' consensus on real lines 2024-10-24..2025-04-13: Brier 0.2492 + 0.0004 (more than 1 SE, 0.0004)",
    distribution: 'not scored on real lines: the real set has no unpriced lines',
  },
};

/** The coefficients the simulator's code paths default to. */
export const COEFFICIENTS = SIMULATED_COEFFICIENTS;

/** Which coefficients, in a few words: "simulated, fitted on seed 20261122, 2026-10-25..2026-10-31, 27676 finals". */
export function coefficientsLabel(coef: Coefficients): string {
  return `${coef.kind}, fitted on ${coef.fittedOn}`;
}

/** The coefficients served: the real ones when the books are real, the simulator's on the simulator. */
export function servedCoefficients(realBooks: boolean): Coefficients {
  return realBooks ? REAL_COEFFICIENTS : SIMULATED_COEFFICIENTS;
}
