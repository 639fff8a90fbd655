/** GET /api/v1/props/edges: the caller's board sorted by edge (pro tier and above). */
import { edgesQuery } from '../queries/edges';
import { queryRoute } from './queryRoute';

export const edges = queryRoute<'edges'>(edgesQuery);
