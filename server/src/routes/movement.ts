/** GET /api/v1/props/movement: the board's biggest line movers (pro tier and above). */
import { boardDataOf } from '../queries/deps';
import { movementQuery } from '../queries/movement';
import { queryRoute } from './queryRoute';

export const movement = queryRoute<'movement'>((deps, caller, query) =>
  movementQuery(deps, caller, query, boardDataOf(deps)),
);
