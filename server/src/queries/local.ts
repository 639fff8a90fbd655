/**
 * The API as methods for one already-authenticated caller, in-process: what the MCP tools
 * call. Parameters are parsed with the contract's own schemas, and each route's tier is read
 * from the contract's metadata, as the HTTP routes do; then the same queries answer. Errors
 * are ApiErrors (PropsApiErrorShape). Rate limiting and usage are the caller's edge's job (the key guard).
 */
import { contract, type PropsApi, type RouteMeta } from '@propsfeed/contract';
import { assertRoute } from '../auth/access';
import type { Caller } from '../auth/caller';
import { parseOrRefuse } from '../errors/validation';
import { boardDataOf, type QueryDeps } from './deps';
import { edgesQuery } from './edges';
import { entriesQuery } from './entries';
import { evaluateSlipQuery } from './evaluateSlip';
import { gamePropsQuery } from './gameProps';
import { gamesQuery } from './games';
import { meQuery } from './me';
import { movementQuery } from './movement';
import { playerContextQuery } from './playerContext';
import { playerPropsQuery } from './playerProps';
import { propHistoryQuery } from './propHistory';
import { resultsQuery } from './results';
import { scanQuery } from './scan';
import { sportsQuery } from './sports';
import { trackRecordQuery } from './trackRecord';

/**
 * The pro routes refuse a lower tier before their parameters are read, as the key guard does,
 * and in its words: the refusal names the route's path, over MCP's HTTP and stdio alike.
 */
function assertRouteTier(caller: Caller, key: 'propHistory' | 'movement' | 'edges' | 'evaluateSlip'): void {
  assertRoute(caller, (contract[key].metadata as RouteMeta).tier ?? 'free', contract[key].path);
}

export function createLocalApi(deps: QueryDeps, caller: Caller): PropsApi {
  return {
    async sports() {
      return sportsQuery(caller).value;
    },
    async games(params = {}) {
      const query = parseOrRefuse(contract.games.query, params);
      return gamesQuery(deps, caller, query).value;
    },
    async gameProps(eventId, params = {}) {
      const path = parseOrRefuse(contract.gameProps.pathParams, { eventId });
      const stats = Array.isArray(params.stats) ? params.stats.join(',') : params.stats;
      const query = parseOrRefuse(contract.gameProps.query, { ...params, stats });
      return gamePropsQuery(deps, caller, path.eventId, query).value;
    },
    async scan(params = {}) {
      const query = parseOrRefuse(contract.scan.query, params);
      return scanQuery(deps, caller, query).value;
    },
    me: () => meQuery(deps, caller),
    async playerProps(params) {
      const query = parseOrRefuse(contract.playerProps.query, params);
      return playerPropsQuery(deps, caller, query, deps.boardData?.gameLogs).value;
    },
    async playerContext(params) {
      const query = parseOrRefuse(contract.playerContext.query, params);
      return playerContextQuery(deps, caller, query, boardDataOf(deps).gameLogs).value;
    },
    async propHistory(params) {
      assertRouteTier(caller, 'propHistory');
      const query = parseOrRefuse(contract.propHistory.query, params);
      return (await propHistoryQuery(deps, caller, query, boardDataOf(deps).history)).value;
    },
    async movement(params = {}) {
      assertRouteTier(caller, 'movement');
      const since = params.since instanceof Date ? params.since.toISOString() : params.since;
      const query = parseOrRefuse(contract.movement.query, { ...params, since });
      return (await movementQuery(deps, caller, query, boardDataOf(deps))).value;
    },
    async entries() {
      return entriesQuery(deps).value;
    },
    async edges(params = {}) {
      assertRouteTier(caller, 'edges');
      const query = parseOrRefuse(contract.edges.query, params);
      return edgesQuery(deps, caller, query).value;
    },
    async evaluateSlip(legs) {
      assertRouteTier(caller, 'evaluateSlip');
      const body = parseOrRefuse(contract.evaluateSlip.body, { legs });
      return evaluateSlipQuery(deps, caller, body.legs);
    },
    async results(params = {}) {
      const query = parseOrRefuse(contract.results.query, params);
      return (await resultsQuery(deps, caller, query, boardDataOf(deps).settlements)).value;
    },
    async trackRecord(params = {}) {
      const query = parseOrRefuse(contract.trackRecord.query, params);
      return (await trackRecordQuery(deps, caller, query, boardDataOf(deps).settlements)).value;
    },
  };
}
