// Every request and response type of the client's methods, imported by name from the packed
// @propsfeed/sdk under `strict`, and checked to be exactly what each method takes and answers.
import type {
  CreatedKey,
  CreatedWebhook,
  CreateKeyRequest,
  CreateWebhookRequest,
  DeletedWebhook,
  Edge,
  EdgesParams,
  EdgesResponse,
  EntriesResponse,
  EntryType,
  GamePropsParams,
  GamesParams,
  GamesResponse,
  KeyInfo,
  MovementParams,
  MovementResponse,
  MoversParams,
  PlayerContextParams,
  PlayerContextResponse,
  PlayerPropsParams,
  PlayerPropsResponse,
  PropHistoryParams,
  PropHistoryResponse,
  PropsFeed,
  PropsResult,
  ResultsParams,
  ResultsResponse,
  RotatedSecret,
  ScanParams,
  ScanResponse,
  SettledProp,
  SlipEvaluation,
  SlipLeg,
  SportsResponse,
  StreamMessage,
  StreamParams,
  StreamToken,
  TrackRecordParams,
  TrackRecordResponse,
  UpdateWebhookRequest,
  Webhook,
  WebhookDeliveries,
  WebhookDeliveriesParams,
  WebhookDelivery,
  WebhookList,
} from '@propsfeed/sdk';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
type Method<K extends keyof PropsFeed> = PropsFeed[K];
type Webhooks<K extends keyof PropsFeed['webhooks']> = PropsFeed['webhooks'][K];

export type Signatures = [
  Assert<Equal<Method<'sports'>, () => Promise<SportsResponse>>>,
  Assert<Equal<Method<'games'>, (params?: GamesParams) => Promise<GamesResponse>>>,
  Assert<Equal<Method<'gameProps'>, (eventId: string, params?: GamePropsParams) => Promise<PropsResult>>>,
  Assert<Equal<Method<'scan'>, (params?: ScanParams) => Promise<ScanResponse>>>,
  Assert<Equal<Method<'me'>, () => Promise<KeyInfo>>>,
  Assert<Equal<Method<'playerProps'>, (params: PlayerPropsParams) => Promise<PlayerPropsResponse>>>,
  Assert<Equal<Method<'playerContext'>, (params: PlayerContextParams) => Promise<PlayerContextResponse>>>,
  Assert<Equal<Method<'propHistory'>, (params: PropHistoryParams) => Promise<PropHistoryResponse>>>,
  Assert<Equal<Method<'movement'>, (params?: MovementParams) => Promise<MovementResponse>>>,
  Assert<Equal<Method<'movers'>, (params?: MoversParams) => Promise<MovementResponse>>>,
  Assert<Equal<Method<'entries'>, () => Promise<EntriesResponse>>>,
  Assert<Equal<Method<'edges'>, (params?: EdgesParams) => Promise<EdgesResponse>>>,
  Assert<Equal<Method<'evaluateSlip'>, (legs: SlipLeg[]) => Promise<SlipEvaluation>>>,
  Assert<Equal<Method<'stream'>, (params?: StreamParams) => AsyncGenerator<StreamMessage>>>,
  Assert<Equal<Method<'streamToken'>, () => Promise<StreamToken>>>,
  Assert<Equal<Method<'results'>, (params?: ResultsParams) => Promise<ResultsResponse>>>,
  Assert<Equal<Method<'trackRecord'>, (params?: TrackRecordParams) => Promise<TrackRecordResponse>>>,
  Assert<Equal<Method<'createKey'>, (params: CreateKeyRequest) => Promise<CreatedKey>>>,
  Assert<Equal<Webhooks<'create'>, (params: CreateWebhookRequest) => Promise<CreatedWebhook>>>,
  Assert<Equal<Webhooks<'list'>, () => Promise<WebhookList>>>,
  Assert<Equal<Webhooks<'get'>, (id: string) => Promise<Webhook>>>,
  Assert<Equal<Webhooks<'update'>, (id: string, params: UpdateWebhookRequest) => Promise<Webhook>>>,
  Assert<Equal<Webhooks<'delete'>, (id: string) => Promise<DeletedWebhook>>>,
  Assert<Equal<Webhooks<'rotateSecret'>, (id: string) => Promise<RotatedSecret>>>,
  Assert<Equal<Webhooks<'test'>, (id: string) => Promise<WebhookDelivery>>>,
  Assert<Equal<Webhooks<'deliveries'>, (id: string, params?: WebhookDeliveriesParams) => Promise<WebhookDeliveries>>>,
  Assert<Equal<Webhooks<'retryDelivery'>, (id: string, deliveryId: string) => Promise<WebhookDelivery>>>,
  Assert<Equal<Webhooks<'retry'>, (id: string, deliveryId: string) => Promise<WebhookDelivery>>>,
];

// The parts a caller reads, by name too.
export function bestEdge(edges: EdgesResponse): Edge | undefined {
  return edges.rows[0]?.edge;
}
export const legs: SlipLeg[] = [
  { eventId: 'pp_1', player: 'A', stat: 'points', side: 'over', book: 'prizepicks' },
  { eventId: 'pp_1', player: 'B', stat: 'points', side: 'under', book: 'prizepicks' },
];
export type Parts = [EntryType, SettledProp];
// @ts-expect-error: a leg's side is over or under
export const wrongSide: SlipLeg = { eventId: 'pp_1', player: 'A', stat: 'points', side: 'sideways' };
