/** GET /api/v1/props/results: the settled props of a day (free: yesterday and earlier; pro and above: today too). */
import { boardDataOf } from '../queries/deps';
import { resultsQuery } from '../queries/results';
import { queryRoute } from './queryRoute';

export const results = queryRoute<'results'>((deps, caller, query) =>
  resultsQuery(deps, caller, query, boardDataOf(deps).settlements),
);
