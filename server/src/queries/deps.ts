/** What the query layer reads: the board views, the limiter (for /me), the clock and the board data. */

import { ApiError } from '../errors/apiError';
import type { SettlementReader } from '../history/settlement';
import type { LineHistoryReader } from '../history/types';
import type { Limiter } from '../limits/types';
import type { EntryBook } from '../odds/entries';
import type { Coefficients } from '../odds/model';
import type { GameLogIndex } from '../stats/gameLogIndex';
import type { ViewRegistry } from '../views';
import type { OpeningLines } from '../views/openingLines';

/** What the board routes read besides the board: game logs (and projections), line history, openings, settlements. */
export interface BoardData {
  gameLogs: GameLogIndex;
  history: LineHistoryReader;
  openings: OpeningLines;
  /** Settled props and the chances published at lock (results, track record). */
  settlements: SettlementReader;
}

export interface QueryDeps {
  views: ViewRegistry;
  limiter: Limiter;
  /** The board's clock (views, history windows, entries in effect): PROPS_SIM_CLOCK's on the simulator. */
  now: () => number;
  /** The machine's clock, for limits and tokens, when the board's is simulated; default `now`. */
  machineNow?: () => number;
  /** Game logs, line history and openings for the board routes; without it they answer 503. */
  boardData?: BoardData;
  /** The pick'em payout tables in force (default: the catalog's). */
  entries?: EntryBook;
  /** The model's coefficients served (default: the simulator's). */
  coefficients?: Coefficients;
}

/** The board data, or a 503 on a server started without a store behind its feed. */
export function boardDataOf(deps: QueryDeps): BoardData {
  if (!deps.boardData)
    throw new ApiError('upstream_unavailable', 'game logs and line history are not available on this server');
  return deps.boardData;
}
