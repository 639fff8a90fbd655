/**
 * The API as methods: the SDK implements it over HTTP, the server implements it in-process
 * for one caller, and the MCP tools are written once against it.
 */
import type { Book, SportId, StateFilter } from './catalog';
import type {
  MovementResponse,
  PlayerContextResponse,
  PlayerPropsResponse,
  PropHistoryResponse,
} from './schemas/board';
import type { EntriesResponse } from './schemas/entry';
import type { GamesResponse } from './schemas/game';
import type { KeyInfo } from './schemas/key';
import type { EdgesResponse, ProbabilityBasis, PropsResult, ScanResponse } from './schemas/prop';
import type { ScanQuery } from './schemas/query';
import type { ResultsResponse, TrackRecordResponse } from './schemas/record';
import type { SlipEvaluation, SlipLeg } from './schemas/slip';
import type { SportsResponse } from './schemas/sport';

export interface GamesParams {
  sport?: SportId;
  /** One state, or all; default: the open games, then those that ended in the last 3 hours. */
  state?: StateFilter;
}
export interface GamePropsParams {
  /** Stat keys to keep: a list or a comma-separated string. */
  stats?: string | string[];
  sport?: SportId;
}
/** The scan's query (ScanQuerySchema's fields and their meaning), every one optional. */
export type ScanParams = Partial<ScanQuery>;
export interface PlayerPropsParams {
  name: string;
  sport?: SportId;
  /** Props of games in this state, or all; default: the open games' (pre and live). */
  state?: StateFilter;
}
export interface PlayerContextParams {
  name: string;
  sport?: SportId;
  stat?: string;
}
export interface PropHistoryParams {
  eventId: string;
  player: string;
  stat: string;
  source?: Book;
}
export interface MovementParams {
  sport?: SportId;
  stat?: string;
  /** ISO 8601 time, or a Date. */
  since?: string | Date;
  limit?: number;
  /** Props of games in this state, or all; default: the open games' (pre and live). */
  state?: StateFilter;
}
/** @deprecated use MovementParams (renamed after the route, GET /props/movement). */
export type MoversParams = MovementParams;

export interface EdgesParams {
  sport?: SportId;
  stat?: string;
  /** Entry type id (GET /entries); default: each book's entry type with the lowest breakeven. */
  entry?: string;
  minEdge?: number;
  limit?: number;
  /** Props of games in this state, or all; default: the open games' (pre and live). */
  state?: StateFilter;
}

export interface ResultsParams {
  /** UTC day YYYY-MM-DD (default: today for pro and above, yesterday for free). */
  date?: string;
  sport?: SportId;
  player?: string;
  stat?: string;
  limit?: number;
}

export interface TrackRecordParams {
  sport?: SportId;
  stat?: string;
  /** UTC day YYYY-MM-DD: only games on or after it. */
  since?: string;
  /** Only estimates of this basis (the record scores chances published at lock: never live ones). */
  method?: Exclude<ProbabilityBasis, 'none' | 'live'>;
}

export interface PropsApi {
  sports(): Promise<SportsResponse>;
  games(params?: GamesParams): Promise<GamesResponse>;
  gameProps(eventId: string, params?: GamePropsParams): Promise<PropsResult>;
  scan(params?: ScanParams): Promise<ScanResponse>;
  me(): Promise<KeyInfo>;
  playerProps(params: PlayerPropsParams): Promise<PlayerPropsResponse>;
  playerContext(params: PlayerContextParams): Promise<PlayerContextResponse>;
  propHistory(params: PropHistoryParams): Promise<PropHistoryResponse>;
  movement(params?: MovementParams): Promise<MovementResponse>;
  entries(): Promise<EntriesResponse>;
  edges(params?: EdgesParams): Promise<EdgesResponse>;
  evaluateSlip(legs: SlipLeg[]): Promise<SlipEvaluation>;
  results(params?: ResultsParams): Promise<ResultsResponse>;
  trackRecord(params?: TrackRecordParams): Promise<TrackRecordResponse>;
}

/**
 * What a PropsApi method throws when the API answers an error: the envelope plus the status.
 * The SDK's PropsFeedError classes satisfy it; so do the server's in-process errors.
 */
export interface PropsApiErrorShape {
  status: number;
  code: string;
  message: string;
  requiredTier?: string;
  retryAfter?: number;
}

export function isPropsApiError(err: unknown): err is PropsApiErrorShape {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as PropsApiErrorShape).status === 'number' &&
    typeof (err as PropsApiErrorShape).code === 'string'
  );
}
