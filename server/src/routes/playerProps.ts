/** GET /api/v1/props/player: every active prop of one player. */
import { playerPropsQuery } from '../queries/playerProps';
import { queryRoute } from './queryRoute';

export const playerProps = queryRoute<'playerProps'>((deps, caller, query) =>
  playerPropsQuery(deps, caller, query, deps.boardData?.gameLogs),
);
