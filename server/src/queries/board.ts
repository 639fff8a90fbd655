/**
 * The four board queries (player props, player context, prop history, movers) as the local
 * API calls them: parameters checked with the contract's own query schemas, as the HTTP
 * routes' are, then the same query functions the routes call.
 */
import {
  MovementQuerySchema,
  PlayerContextQuerySchema,
  PlayerPropsQuerySchema,
  PropHistoryQuerySchema,
  type PropsApi,
} from '@propsfeed/contract';
import type { z } from 'zod';
import type { BoardSource } from '../feed/types';
import { createGameLogStore } from '../history/gameLogs';
import { createLineHistoryStore } from '../history/lineHistory';
import type { LineHistoryReader } from '../history/types';
import { GameLogIndex, gameLogCount } from '../stats/gameLogIndex';
import type { Db } from '../store/db';
import type { Caller } from './caller';
import { playerContextQuery } from './context';
import type { QueryDeps } from './deps';
import { ApiError } from './errors';
import { propHistoryQuery } from './history';
import { moversQuery, OpeningLines } from './movers';
import { playerPropsQuery } from './player';

/** What the board routes read besides the board: game logs (and projections), line history, openings. */
export interface BoardData {
  gameLogs: GameLogIndex;
  history: LineHistoryReader;
  openings: OpeningLines;
}

/**
 * The board routes' data over the store the feed writes (line history, game logs) and the
 * feed itself; its game-log index is also the views' ProjectionSource. `stop()` ends its
 * reloads and board watching (the store stays open).
 */
export async function openBoardData(
  db: Db,
  feed: BoardSource,
  onError: (err: unknown) => void,
): Promise<BoardData & { stop(): void }> {
  const history = unavailableOnFailure(createLineHistoryStore(db), onError);
  const gameLogs = new GameLogIndex(createGameLogStore(db), gameLogCount(db), onError);
  const openings = new OpeningLines(feed, history);
  openings.start();
  await gameLogs.start();
  return {
    gameLogs,
    history,
    openings,
    stop() {
      gameLogs.stop();
      openings.stop();
    },
  };
}

/**
 * Line history reads whose store failures (PostgreSQL down, say) answer 503
 * upstream_unavailable rather than 500: the board itself is still served from memory. The
 * cause is logged, so a failing query is not mistaken for an outage unseen.
 */
function unavailableOnFailure(reader: LineHistoryReader, onError: (err: unknown) => void): LineHistoryReader {
  const unavailable = (err: unknown): never => {
    onError(err);
    throw new ApiError('upstream_unavailable', 'line history is unavailable right now; retry shortly');
  };
  return {
    propHistory: (q) => reader.propHistory(q).catch(unavailable),
    movers: (q) => reader.movers(q).catch(unavailable),
    resolveGame: (id) => reader.resolveGame(id).catch(unavailable),
  };
}

/** The board data, or a 503 on a server started without a store behind its feed. */
export function boardDataOf(deps: QueryDeps): BoardData {
  if (!deps.boardData)
    throw new ApiError('upstream_unavailable', 'game logs and line history are not available on this server');
  return deps.boardData;
}

type BoardMethod<K extends keyof PropsApi> = (
  deps: QueryDeps,
  caller: Caller,
  ...args: Parameters<PropsApi[K]>
) => ReturnType<PropsApi[K]>;

export interface BoardQueries {
  playerProps: BoardMethod<'playerProps'>;
  playerContext: BoardMethod<'playerContext'>;
  propHistory: BoardMethod<'propHistory'>;
  movers: BoardMethod<'movers'>;
}

function parse<S extends z.ZodTypeAny>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`);
  throw new ApiError('invalid_request', `invalid request (${problems.join('; ')})`);
}

export const boardQueries: BoardQueries = {
  async playerProps(deps, caller, params) {
    const query = parse(PlayerPropsQuerySchema, params);
    return playerPropsQuery(deps, caller, query, deps.boardData?.gameLogs).value;
  },
  async playerContext(deps, caller, params) {
    const query = parse(PlayerContextQuerySchema, params);
    return playerContextQuery(deps, caller, query, boardDataOf(deps).gameLogs).value;
  },
  async propHistory(deps, caller, params) {
    const query = parse(PropHistoryQuerySchema, params);
    return (await propHistoryQuery(deps, caller, query, boardDataOf(deps).history)).value;
  },
  async movers(deps, caller, params = {}) {
    const since = params.since instanceof Date ? params.since.toISOString() : params.since;
    const query = parse(MovementQuerySchema, { ...params, since });
    return (await moversQuery(deps, caller, query, boardDataOf(deps))).value;
  },
};
