/** GET /api/v1/context/player: one player's averages, form and hit rates per stat. */
import { boardDataOf } from '../queries/deps';
import { playerContextQuery } from '../queries/playerContext';
import { queryRoute } from './queryRoute';

export const playerContext = queryRoute<'playerContext'>((deps, caller, query) =>
  playerContextQuery(deps, caller, query, boardDataOf(deps).gameLogs),
);
