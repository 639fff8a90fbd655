/**
 * The model's fitted weights and spreads (odds/model.ts), as `pnpm backtest --fit --from
 * 2026-10-31 --days 1` printed them: fitted on a day before any the backtest scores by default
 * (its window starts 2026-11-01), so the backtest never judges the model on the days it was
 * fitted on. Weights: intercept (a share of the market mean), season, form.
 */
import type { Coefficients } from './model';

export const COEFFICIENTS: Coefficients = {
  priced: [1.2356, 0.5715, -0.8081],
  unpriced: [0.8439, 0.7259, -0.5565],
  dispersion: {
    nba: 0.0116,
    'ncaab|points': 0.0204,
    ncaab: 0.0176,
    'ncaab|assists': 0.0377,
    'ncaab|pra': 0.0127,
    'ncaab|pts_asts': 0.0238,
    'ncaab|pts_rebs': 0.0112,
    'ncaab|rebounds': 0.0513,
    'ncaab|threes': 0.0635,
    nhl: 0.014,
    wnba: 0.0268,
    'mlb|hits': 0.3425,
    mlb: 0.0065,
    'mlb|hits_runs_rbis': 0.0073,
    'mlb|total_bases': 0.005,
    lol: 0.0204,
    soccer: 0.0124,
    ncaaf: 0.0265,
  },
  fittedOn: 'seed 20261122, 2026-10-31..2026-10-31, 4757 finals',
};
