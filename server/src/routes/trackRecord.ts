/** GET /api/v1/props/track-record: how the chances published at lock did against the results (free). */
import { boardDataOf } from '../queries/deps';
import { trackRecordQuery } from '../queries/trackRecord';
import { queryRoute } from './queryRoute';

export const trackRecord = queryRoute<'trackRecord'>((deps, caller, query) =>
  trackRecordQuery(deps, caller, query, boardDataOf(deps).settlements),
);
