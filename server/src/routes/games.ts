/** GET /api/v1/games: the games of a sport on the caller's board, live first. */
import { gamesQuery } from '../queries/games';
import { queryRoute } from './queryRoute';

export const games = queryRoute<'games'>(gamesQuery);
