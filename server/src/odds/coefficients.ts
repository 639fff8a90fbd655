/**
 * The model's fitted weights and spreads (odds/model.ts), as `pnpm backtest --fit --from
 * 2026-10-31 --days 1` printed them: fitted on a day before any the backtest scores by default
 * (its window starts 2026-11-01), so the backtest never judges the model on the days it was
 * fitted on. Weights: intercept (a share of the market mean), season, form.
 */
import type { Coefficients } from './model';

export const COEFFICIENTS: Coefficients = {
  priced: [0.822, 0.5469, -0.3744],
  unpriced: [0.7385, 0.6315, -0.3561],
  dispersion: {
    nba: 0.0312,
    'ncaab|points': 0.0472,
    ncaab: 0.0312,
    'ncaab|assists': 0.0492,
    'ncaab|pra': 0.0206,
    'ncaab|pts_asts': 0.0416,
    'ncaab|pts_rebs': 0.0252,
    'ncaab|rebounds': 0.055,
    'ncaab|threes': 0.0779,
    nhl: 0.0274,
    wnba: 0.0386,
    'mlb|hits': 0.2792,
    mlb: 0.0128,
    'mlb|hits_runs_rbis': 0.005,
    'mlb|total_bases': 0.005,
    lol: 0.0428,
    soccer: 0.0408,
    ncaaf: 0.1018,
  },
  fittedOn: 'seed 20261122, 2026-10-31..2026-10-31, 4757 finals',
};
