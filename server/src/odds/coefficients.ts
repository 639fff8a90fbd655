/**
 * The model's fitted weights and spreads (odds/model.ts), as `pnpm backtest --fit` printed
 * them. Fitted on days before any the backtest scores (its default window starts 2026-11-01),
 * so the backtest never judges the model on the days it was fitted on.
 */
import type { Coefficients } from './model';

export const COEFFICIENTS: Coefficients = {
  priced: [0, 1, 0],
  unpriced: [0, 1, 0],
  dispersion: {},
  fittedOn: 'not fitted',
};
