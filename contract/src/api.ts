/**
 * The API as methods: the SDK implements it over HTTP, the server implements it in-process
 * for one caller, and the MCP tools are written once against it.
 */
import type { z } from 'zod';
import type { SportId } from './catalog';
import type {
  MovementResponse,
  PlayerContextResponse,
  PlayerPropsResponse,
  PropHistoryResponse,
} from './schemas/board';
import type { EntriesResponse } from './schemas/entry';
import type { GamesResponse } from './schemas/game';
import type { KeyInfo } from './schemas/key';
import type { EdgesResponse, PropsResult, ScanResponse } from './schemas/prop';
import type {
  EdgesQuerySchema,
  GamesQuerySchema,
  MovementQuerySchema,
  PlayerContextQuerySchema,
  PlayerPropsQuerySchema,
  PropHistoryQuerySchema,
  ScanQuery,
} from './schemas/query';
import type {
  ResultsQuerySchema,
  ResultsResponse,
  TrackRecordQuerySchema,
  TrackRecordResponse,
} from './schemas/record';
import type { SlipEvaluation, SlipLeg } from './schemas/slip';
import type { SportsResponse } from './schemas/sport';

/**
 * A route's query as a caller gives it: the fields of its schema (their meaning is in the
 * schema's descriptions and the API reference), those named in `Needed` required, the rest optional.
 */
type QueryParams<S extends z.ZodTypeAny, Needed extends keyof z.infer<S> = never> = Flat<
  Partial<z.infer<S>> & Pick<z.infer<S>, Needed>
>;
/** One object type of an intersection's fields (so an editor shows the fields, not the intersection). */
type Flat<T> = { [K in keyof T]: T[K] };

export type GamesParams = QueryParams<typeof GamesQuerySchema>;
export interface GamePropsParams {
  /** Stat keys to keep: a list or a comma-separated string. */
  stats?: string | string[];
  sport?: SportId;
}
/** The scan's query (ScanQuerySchema's fields and their meaning), every one optional. */
export type ScanParams = Partial<ScanQuery>;
export type PlayerPropsParams = QueryParams<typeof PlayerPropsQuerySchema, 'name'>;
export type PlayerContextParams = QueryParams<typeof PlayerContextQuerySchema, 'name'>;
export type PropHistoryParams = QueryParams<typeof PropHistoryQuerySchema, 'eventId' | 'player' | 'stat'>;
/** `since`: an ISO 8601 time, or a Date. */
export type MovementParams = Omit<QueryParams<typeof MovementQuerySchema>, 'since'> & { since?: string | Date };
/** @deprecated use MovementParams (renamed after the route, GET /props/movement). */
export type MoversParams = MovementParams;

export type EdgesParams = QueryParams<typeof EdgesQuerySchema>;

export type ResultsParams = QueryParams<typeof ResultsQuerySchema>;

export type TrackRecordParams = QueryParams<typeof TrackRecordQuerySchema>;

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
