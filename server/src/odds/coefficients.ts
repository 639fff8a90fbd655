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
    {
      season: 0.1769,
      form: 0,
      kSeason: 24,
      kForm: 1,
    },
    {
      season: 0,
      form: 0.0109,
      kSeason: 1,
      kForm: 1,
    },
    {
      season: 0.0263,
      form: 0,
      kSeason: 192,
      kForm: 1,
    },
    {
      season: 0.0197,
      form: 0,
      kSeason: 1,
      kForm: 1,
    },
  ],
  unpriced: [
    {
      season: 0.8821,
      form: 0.098,
      kSeason: 1,
      kForm: 48,
    },
    {
      season: 0.5862,
      form: 0,
      kSeason: 1,
      kForm: 1,
    },
    {
      season: 0.2984,
      form: 0,
      kSeason: 1,
      kForm: 1,
    },
    {
      season: 0.3159,
      form: 0.1679,
      kSeason: 64,
      kForm: 128,
    },
  ],
  dispersion: {
    'nba|assists': 0.0486,
    nba: 0.032,
    'nba|blks_stls': 0.0482,
    'nba|points': 0.0491,
    'nba|pra': 0.0242,
    'nba|pts_asts': 0.0323,
    'nba|rebounds': 0.0348,
    'nba|threes': 0.0463,
    'nba|pts_rebs': 0.0317,
    'nhl|hits': 0.0804,
    nhl: 0.0513,
    'nhl|points': 0.005,
    'nhl|shots_on_goal': 0.0571,
    'nhl|goals': 0.005,
    'nhl|blocked_shots': 0.1058,
    'lol|assists_on_games_1_2': 0.0405,
    lol: 0.0479,
    'lol|kills_on_game_1': 0.0695,
    'lol|kills_on_games_1_2': 0.0683,
    'wnba|assists': 0.0529,
    wnba: 0.0226,
    'wnba|points': 0.0377,
    'wnba|pra': 0.0145,
    'wnba|pts_rebs': 0.0209,
    'wnba|rebounds': 0.051,
    'wnba|pts_asts': 0.0221,
    'wnba|threes': 0.0372,
    'mlb|hits': 0.005,
    mlb: 0.0228,
    'mlb|hitter_strikeouts': 0.0315,
    'mlb|rbis': 0.005,
    'mlb|runs': 0.0165,
    'mlb|total_bases': 0.0345,
    'mlb|hits_runs_rbis': 0.005,
    'mlb|singles': 0.005,
    'mlb|pitches_thrown': 0.0221,
    'mlb|strikeouts': 0.1273,
    ncaaf: 0.0842,
    'ncaab|assists': 0.0286,
    ncaab: 0.0313,
    'ncaab|points': 0.0478,
    'ncaab|pts_asts': 0.0341,
    'ncaab|rebounds': 0.0437,
    'ncaab|threes': 0.0471,
    'ncaab|pra': 0.0239,
    'ncaab|pts_rebs': 0.0299,
    'ncaab|rebs_asts': 0.0145,
    soccer: 0.0447,
    'soccer|passes': 0.0448,
    'soccer|shots': 0.0299,
    nfl: 0.0697,
  },
  inherent: {
    'nba|assists': 0.0489,
    nba: 0.0353,
    'nba|blks_stls': 0.0457,
    'nba|points': 0.0496,
    'nba|pra': 0.0275,
    'nba|pts_asts': 0.036,
    'nba|rebounds': 0.0492,
    'nba|threes': 0.0779,
    'nba|pts_rebs': 0.0352,
    'nhl|hits': 0.0525,
    nhl: 0.0557,
    'nhl|points': 0.0271,
    'nhl|shots_on_goal': 0.0587,
    'nhl|goals': 0.0266,
    'nhl|blocked_shots': 0.0302,
    'lol|assists_on_games_1_2': 0.0456,
    lol: 0.0473,
    'lol|kills_on_game_1': 0.0633,
    'lol|kills_on_games_1_2': 0.0485,
    'wnba|assists': 0.0444,
    wnba: 0.0324,
    'wnba|points': 0.0483,
    'wnba|pra': 0.0252,
    'wnba|pts_rebs': 0.0309,
    'wnba|rebounds': 0.0408,
    'wnba|pts_asts': 0.0348,
    'wnba|threes': 0.0747,
    'mlb|hits': 0.0545,
    mlb: 0.0257,
    'mlb|hitter_strikeouts': 0.0635,
    'mlb|rbis': 0,
    'mlb|runs': 0.0788,
    'mlb|total_bases': 0.0409,
    'mlb|hits_runs_rbis': 0.0146,
    'mlb|singles': 0.0741,
    'mlb|pitches_thrown': 0.0245,
    'mlb|strikeouts': 0.0648,
    ncaaf: 0.0861,
    'ncaab|assists': 0.0535,
    ncaab: 0.036,
    'ncaab|points': 0.0488,
    'ncaab|pts_asts': 0.037,
    'ncaab|rebounds': 0.0509,
    'ncaab|threes': 0.05,
    'ncaab|pra': 0.029,
    'ncaab|pts_rebs': 0.0342,
    'ncaab|rebs_asts': 0.0539,
    soccer: 0.0524,
    'soccer|passes': 0.0524,
    'soccer|shots': 0.0454,
    nfl: 0.0797,
  },
  liveScale: 0.835,
  fittedOn: 'seed 20261122, 2026-10-25..2026-10-31, 27676 finals',
  // The 14-day backtest's verdicts (pnpm backtest, seed 20261122, scored 2026-11-01..14 with these
  // coefficients): only the priced line's chances are calibrated on the simulator.
  withheld: {
    distribution:
      'not calibrated on seed 20261122, 2026-11-01..2026-11-14: 26.8 % → 44.1 % (n 227), 63.9 % → 58.2 % (n 902) outside max(3 points, 2 SE)',
    prices_moved:
      'not calibrated on seed 20261122, 2026-11-01..2026-11-14: 27.3 % → 37.5 % (n 272), 55.5 % → 52.3 % (n 5415), 63.7 % → 59.0 % (n 3319), 72.1 % → 66.0 % (n 268) outside max(3 points, 2 SE)',
    live: 'not calibrated on seed 20261122, 2026-11-01..2026-11-14 (live snapshots): 16.7 % → 12.7 % (n 7767), 25.8 % → 21.4 % (n 17507), 71.5 % → 61.3 % (n 124) outside max(3 points, 2 SE)',
  },
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
      'worse than the market on real lines 2024-10-24..2025-04-13: Brier 0.2496 against 0.2492 (more than 1 SE, 0.0004)',
    distribution: 'not scored on real lines: the real set has no unpriced lines',
    live: 'not scored on real lines: the real set has no in-game lines',
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
