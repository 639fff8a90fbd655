/**
 * The API as methods for one already-authenticated caller, in-process: what the MCP tools
 * call. Same queries and tier rules as the HTTP routes; errors are ApiErrors
 * (PropsApiErrorShape). Rate limiting and usage are the caller's edge's job (the key guard).
 */
import {
  DEFAULT_SPORT,
  MovementQuerySchema,
  PlayerContextQuerySchema,
  PlayerPropsQuerySchema,
  PropHistoryQuerySchema,
  type PropsApi,
  SPORT_IDS,
  type SportId,
} from '@propsfeed/contract';
import type { z } from 'zod';
import { assertRoute } from '../auth/access';
import type { Caller } from '../auth/caller';
import { ApiError } from '../errors/apiError';
import { boardDataOf, type QueryDeps } from './deps';
import { gamePropsQuery } from './gameProps';
import { gamesQuery } from './games';
import { meQuery } from './me';
import { movementQuery } from './movement';
import { playerContextQuery } from './playerContext';
import { playerPropsQuery } from './playerProps';
import { propHistoryQuery } from './propHistory';
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

/** Parameters checked with the contract's own query schema, as the HTTP routes' are. */
function parse<S extends z.ZodTypeAny>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`);
  throw new ApiError('invalid_request', `invalid request (${problems.join('; ')})`);
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
    async playerProps(params) {
      const query = parse(PlayerPropsQuerySchema, params);
      return playerPropsQuery(deps, caller, query, deps.boardData?.gameLogs).value;
    },
    async playerContext(params) {
      const query = parse(PlayerContextQuerySchema, params);
      return playerContextQuery(deps, caller, query, boardDataOf(deps).gameLogs).value;
    },
    async propHistory(params) {
      assertRoute(caller, 'pro', 'prop history');
      const query = parse(PropHistoryQuerySchema, params);
      return (await propHistoryQuery(deps, caller, query, boardDataOf(deps).history)).value;
    },
    async movers(params = {}) {
      assertRoute(caller, 'pro', 'line movement');
      const since = params.since instanceof Date ? params.since.toISOString() : params.since;
      const query = parse(MovementQuerySchema, { ...params, since });
      return (await movementQuery(deps, caller, query, boardDataOf(deps))).value;
    },
  };
}
