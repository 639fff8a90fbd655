/** GET /api/v1/props/history: every change of one prop's line since it opened (pro). */
import { boardDataOf } from '../queries/deps';
import { propHistoryQuery } from '../queries/propHistory';
import { queryRoute } from './queryRoute';

export const propHistory = queryRoute<'propHistory'>((deps, caller, query) =>
  propHistoryQuery(deps, caller, query, boardDataOf(deps).history),
);
