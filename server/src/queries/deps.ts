/** What the query layer reads: the board views, the limiter (for /me) and the clock. */
import type { Limiter } from '../limits/types';
import type { ViewRegistry } from '../views';
import type { BoardData } from './board';

export interface QueryDeps {
  views: ViewRegistry;
  limiter: Limiter;
  now: () => number;
  /** Game logs, line history and openings for the board routes; without it they answer 503. */
  boardData?: BoardData;
}
