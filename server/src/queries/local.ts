/**
 * The API as methods for one already-authenticated caller, in-process: what the MCP tools
 * call. Same queries and tier rules as the HTTP routes; errors are ApiErrors
 * (PropsApiErrorShape). Rate limiting and usage are the caller's edge's job (the key guard).
 */
import { DEFAULT_SPORT, type PropsApi, SPORT_IDS, type SportId } from '@propsfeed/contract';
import { assertRoute } from './access';
import { boardQueries } from './board';
import type { Caller } from './caller';
import type { QueryDeps } from './deps';
import { ApiError } from './errors';
import { gamePropsQuery } from './gameProps';
import { gamesQuery } from './games';
import { meQuery } from './me';
import { scanQuery } from './scan';
import { sportsQuery } from './sports';

const EVENT_ID = /^(pp|ud)_[A-Za-z0-9-]{1,64}$/;

function sportOf(sport: string | undefined): SportId {
  if (sport === undefined) return DEFAULT_SPORT;
  if (!(SPORT_IDS as readonly string[]).includes(sport)) {
    throw new ApiError('invalid_request', `unknown sport '${sport}' (known: ${SPORT_IDS.join(', ')})`);
  }
  return sport as SportId;
}

export function createLocalApi(deps: QueryDeps, caller: Caller): PropsApi {
  return {
    async sports() {
      return sportsQuery(caller).value;
    },
    async games(params = {}) {
      return gamesQuery(deps, caller, sportOf(params.sport)).value;
    },
    async gameProps(eventId, params = {}) {
      if (!EVENT_ID.test(eventId)) {
        throw new ApiError('invalid_request', 'an event id is pp_ or ud_ followed by the book event number');
      }
      return gamePropsQuery(deps, caller, eventId, params).value;
    },
    async scan(params = {}) {
      const limit = params.limit;
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 5000)) {
        throw new ApiError('invalid_request', 'limit is a whole number from 1 to 5000');
      }
      return scanQuery(deps, caller, { sport: sportOf(params.sport), stat: params.stat, limit }).value;
    },
    me: () => meQuery(deps, caller),
    playerProps: (params) => boardQueries.playerProps(deps, caller, params),
    playerContext: (params) => boardQueries.playerContext(deps, caller, params),
    async propHistory(params) {
      assertRoute(caller, 'pro', 'prop history');
      return boardQueries.propHistory(deps, caller, params);
    },
    async movers(params) {
      assertRoute(caller, 'pro', 'line movement');
      return boardQueries.movers(deps, caller, params);
    },
  };
}
