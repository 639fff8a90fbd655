/** GET /api/v1/props: every prop of a sport as rows (contract key `scan`). */
import { scanQuery } from '../queries/scan';
import { queryRoute } from './queryRoute';

export const scan = queryRoute<'scan'>(scanQuery);
