/** GET /props/edges: the caller's board sorted by edge, against an entry type or each book's cheapest. */
import type { EdgesResponse, EntryType, SportId, StateFilter } from '@propsfeed/contract';
import type { Caller } from '../auth/caller';
import { ApiError } from '../errors/apiError';
import { utcDay } from '../odds';
import type { Prepared } from '../views';
import type { QueryDeps } from './deps';
import { entryBookOf } from './entries';
import { boardRowsLimit } from './scan';

/** The entry type of this id in force today; a 400 naming the ids when there is none. */
export function entryTypeOf(deps: QueryDeps, id: string): EntryType {
  const types = entryBookOf(deps).inEffect(utcDay(deps.now()));
  const entry = types.find((t) => t.id === id);
  if (!entry)
    throw new ApiError(
      'invalid_request',
      `unknown entry type '${id}' (in force: ${types.map((t) => t.id).join(', ')})`,
    );
  return entry;
}

export function edgesQuery(
  deps: QueryDeps,
  caller: Caller,
  params: {
    sport: SportId;
    stat?: string | undefined;
    entry?: string | undefined;
    minEdge?: number | undefined;
    limit?: number | undefined;
    state?: StateFilter | undefined;
  },
): Prepared<EdgesResponse> {
  const limit = boardRowsLimit(caller, params);
  const entry = params.entry === undefined ? undefined : entryTypeOf(deps, params.entry);
  return deps.views
    .views(caller.view, caller.policy.delayMs, deps.now())
    .edges(params.sport, params.stat ?? null, entry, params.minEdge ?? null, limit, params.state);
}
