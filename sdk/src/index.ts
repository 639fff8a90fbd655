/**
 * @propsfeed/sdk: the typed client of the propsfeed API. Runs anywhere with `fetch`
 * (Node 20+, browsers, workers): nothing here imports a Node module.
 */
export type {
  ApiError,
  BookLine,
  CreatedKey,
  Game,
  GamePropsParams,
  GameState,
  GamesParams,
  GamesResponse,
  KeyInfo,
  KeyLimits,
  LinePoint,
  MovementResponse,
  Mover,
  MoversParams,
  PlayerContextParams,
  PlayerContextResponse,
  PlayerProp,
  PlayerPropsParams,
  PlayerPropsResponse,
  Projection,
  PropHistoryParams,
  PropHistoryResponse,
  PropsApi,
  PropsApiErrorShape,
  PropsResult,
  ScanParams,
  ScanResponse,
  ScanRow,
  Sport,
  SportId,
  SportsResponse,
  StatContext,
  StateFilter,
  StreamEvent,
  StreamEventType,
  StreamGame,
  StreamToken,
  Tier,
} from '@propsfeed/contract';
export { contract, SPORT_IDS, TIERS } from '@propsfeed/contract';
export { DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MS, PropsFeed, type PropsFeedOptions, type RawClient } from './client';
export {
  AuthenticationError,
  ConnectionError,
  errorFromResponse,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  PropsFeedError,
  type PropsFeedErrorInit,
  parseRetryAfter,
  RateLimitError,
  ServerError,
  TimeoutError,
} from './errors';
export {
  type AttemptOutcome,
  backoffDelayMs,
  DEFAULT_MAX_RETRIES,
  type RetryDecision,
  type RetryInput,
  retryDecision,
} from './retry';
export type { StreamMessage, StreamParams } from './stream';
export type { FetchLike } from './transport';
