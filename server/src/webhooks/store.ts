/**
 * Webhooks in the store (migration 009_webhooks): endpoints, each event's body once, one
 * delivery per event and endpoint, games waiting to settle, and where event production stands.
 * One Kysely implementation runs on SQLite and PostgreSQL; the few statements the two engines
 * spell differently (bulk updates, skipping rows another claimer holds) are spelled per engine.
 */
import type {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_STATUSES,
  WebhookDeliveredType,
  WebhookEventType,
  WebhookFilters,
} from '@propsfeed/contract';
import { sql } from 'kysely';
import { bulkInsert } from '../history/schema';
import { type Db, type Engine, num, numOrNull } from '../store/db';

export type EndpointStatus = (typeof WEBHOOK_STATUSES)[number];
export type DeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export interface EndpointRecord {
  id: string;
  keyId: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  filters: WebhookFilters;
  lineThreshold: number;
  oddsThreshold: number;
  minEdge: number | null;
  entry: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  status: EndpointStatus;
  disabledReason: string | null;
  failingSince: number | null;
  /** Failed attempts since the last success (the circuit breaker's count). */
  consecutiveFailures: number;
  /** Set while the service holds the endpoint paused (status `paused`): why; null when paused by its owner. */
  pausedReason: string | null;
  pausedAt: number | null;
  /** Paused by the service: when its oldest pending delivery is next tried (the half-open probe). */
  probeAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The state of an endpoint just registered: active, never rotated, failing or paused (create writes it; test fixtures start from it). */
export const NEW_ENDPOINT_STATE = {
  previousSecret: null,
  previousSecretUntil: null,
  status: 'active',
  disabledReason: null,
  failingSince: null,
  consecutiveFailures: 0,
  pausedReason: null,
  pausedAt: null,
  probeAt: null,
} as const satisfies Partial<EndpointRecord>;

/** A message: one event's body, sent with the same id to every endpoint it goes to. */
export interface EventRecord {
  id: string;
  type: WebhookDeliveredType;
  body: string;
  createdAt: number;
}

export interface NewDelivery {
  endpointId: string;
  eventId: string;
  type: WebhookDeliveredType;
  createdAt: number;
  /** When the first attempt is due. */
  dueAt: number;
}

export interface DeliveryRecord {
  endpointId: string;
  eventId: string;
  type: WebhookDeliveredType;
  status: DeliveryStatus;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  responseStatus: number | null;
  latencyMs: number | null;
  error: string | null;
}

/** A delivery taken for an attempt: what sending it needs. */
export interface ClaimedDelivery {
  endpointId: string;
  eventId: string;
  type: WebhookDeliveredType;
  attempts: number;
  body: string;
}

/** What one attempt left the delivery as; `lastAttemptAt` null: none was made (the last one's record stays). */
export interface DeliveryUpdate {
  endpointId: string;
  eventId: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  responseStatus: number | null;
  latencyMs: number | null;
  error: string | null;
}

/** What one claim may take from each endpoint. */
export interface ClaimShares {
  /** At most this many from each endpoint, when `rooms` is not given. */
  perEndpoint: number;
  /**
   * Only these endpoints, at most this many from each (0: none): the claimer names every
   * endpoint it would take from (read by id, so a long list costs one lookup each).
   */
  rooms?: ReadonlyMap<string, number>;
}

export interface SettlementWatch {
  gameId: string;
  sport: string;
  date: string;
  finalAt: number;
}

export interface DeliveryPage {
  status?: DeliveryStatus | undefined;
  limit: number;
  /** Older than this (created_at, event id). */
  before?: { createdAt: number; eventId: string } | undefined;
}

export interface WebhookStore {
  insertEndpoint(endpoint: EndpointRecord): Promise<void>;
  endpoint(id: string): Promise<EndpointRecord | undefined>;
  endpointsOf(keyId: string): Promise<EndpointRecord[]>;
  allEndpoints(): Promise<EndpointRecord[]>;
  /** Changes whenever an endpoint is made, deleted or changed with a later updatedAt (what producers poll). */
  endpointsVersion(): Promise<string>;
  updateEndpoint(id: string, patch: Partial<Omit<EndpointRecord, 'id' | 'keyId' | 'createdAt'>>): Promise<void>;
  /** Deletes the endpoint and its deliveries; false when there was none. */
  deleteEndpoint(id: string): Promise<boolean>;
  /**
   * Stores events (an id already stored is kept as it is) and deliveries (likewise), and moves
   * the named production cursor, in one transaction. A delivery's event is stored first (or with it).
   */
  enqueue(
    events: readonly EventRecord[],
    deliveries: readonly NewDelivery[],
    cursor?: { name: string; version: number; at: number },
  ): Promise<void>;
  cursor(name: string): Promise<number | undefined>;
  /**
   * Takes up to `limit` pending deliveries due at `nowMs` whose endpoint is active, and holds
   * them until `heldUntil` (their next_attempt_at), so no other claimer takes them meanwhile; on
   * PostgreSQL rows another claimer is taking are skipped. Fair: each endpoint gives at most its
   * share (`shares.rooms` by endpoint id, else `shares.perEndpoint` each, default all of `limit`), its
   * oldest due first, and the endpoints take turns (every endpoint's first, then every one's
   * second…, the older first at each turn), so one endpoint's backlog cannot fill the claim.
   * Bodies found in `bodies` are not read again; those read are added to it.
   */
  claimDue(
    nowMs: number,
    heldUntil: number,
    limit: number,
    bodies?: Map<string, string>,
    shares?: ClaimShares,
  ): Promise<ClaimedDelivery[]>;
  /** Takes the endpoint's oldest pending delivery, due or not (a paused endpoint's probe); undefined when none. */
  claimOldest(endpointId: string, heldUntil: number): Promise<ClaimedDelivery | undefined>;
  /** Takes this delivery now, whatever its state (a test ping, a retry asked for); undefined when absent. */
  claimOne(endpointId: string, eventId: string, heldUntil: number): Promise<ClaimedDelivery | undefined>;
  /** The earliest next attempt of a pending delivery to an active endpoint. */
  nextDueAt(): Promise<number | undefined>;
  recordAttempts(updates: readonly DeliveryUpdate[]): Promise<void>;
  deliveries(endpointId: string, page: DeliveryPage): Promise<DeliveryRecord[]>;
  delivery(endpointId: string, eventId: string): Promise<DeliveryRecord | undefined>;
  /** Fails the endpoint's pending deliveries with this error (the endpoint was disabled). */
  failPending(endpointId: string, error: string, atMs: number): Promise<number>;
  watchSettlements(watches: readonly SettlementWatch[]): Promise<void>;
  settlementWatches(): Promise<SettlementWatch[]>;
  dropSettlementWatch(gameId: string): Promise<void>;
  /** Deletes finished deliveries older than `beforeMs` and events no delivery refers to. */
  prune(beforeMs: number): Promise<number>;
}

interface EndpointsTable {
  id: string;
  key_id: string;
  url: string;
  description: string | null;
  events: string;
  filters: string;
  line_threshold: number;
  odds_threshold: number;
  min_edge: number | null;
  entry: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | string | null;
  status: string;
  disabled_reason: string | null;
  failing_since: number | string | null;
  consecutive_failures: number | string;
  paused_reason: string | null;
  paused_at: number | string | null;
  probe_at: number | string | null;
  created_at: number | string;
  updated_at: number | string;
}

interface EventsTable {
  id: string;
  type: string;
  body: string;
  created_at: number | string;
}

interface DeliveriesTable {
  endpoint_id: string;
  event_id: string;
  type: string;
  status: string;
  attempts: number;
  created_at: number | string;
  next_attempt_at: number | string | null;
  last_attempt_at: number | string | null;
  response_status: number | null;
  latency_ms: number | null;
  error: string | null;
}

interface SettlementsTable {
  game_id: string;
  sport: string;
  date: string;
  final_at: number | string;
}

interface CursorTable {
  name: string;
  version: number | string;
  updated_at: number | string;
}

export interface WebhookSchema {
  webhook_endpoints: EndpointsTable;
  webhook_events: EventsTable;
  webhook_deliveries: DeliveriesTable;
  webhook_settlements: SettlementsTable;
  webhook_cursor: CursorTable;
}

function toEndpoint(row: EndpointsTable): EndpointRecord {
  return {
    id: row.id,
    keyId: row.key_id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as WebhookEventType[],
    filters: JSON.parse(row.filters) as WebhookFilters,
    lineThreshold: Number(row.line_threshold),
    oddsThreshold: Number(row.odds_threshold),
    minEdge: row.min_edge === null ? null : Number(row.min_edge),
    entry: row.entry,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: numOrNull(row.previous_secret_until),
    status: row.status as EndpointStatus,
    disabledReason: row.disabled_reason,
    failingSince: numOrNull(row.failing_since),
    consecutiveFailures: num(row.consecutive_failures),
    pausedReason: row.paused_reason,
    pausedAt: numOrNull(row.paused_at),
    probeAt: numOrNull(row.probe_at),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
  };
}

type EndpointColumns = Partial<Omit<EndpointsTable, 'id' | 'key_id' | 'created_at'>>;

function endpointColumns(patch: Partial<EndpointRecord>): EndpointColumns {
  const out: EndpointColumns = {};
  if (patch.url !== undefined) out.url = patch.url;
  if (patch.description !== undefined) out.description = patch.description;
  if (patch.events !== undefined) out.events = JSON.stringify(patch.events);
  if (patch.filters !== undefined) out.filters = JSON.stringify(patch.filters);
  if (patch.lineThreshold !== undefined) out.line_threshold = patch.lineThreshold;
  if (patch.oddsThreshold !== undefined) out.odds_threshold = patch.oddsThreshold;
  if (patch.minEdge !== undefined) out.min_edge = patch.minEdge;
  if (patch.entry !== undefined) out.entry = patch.entry;
  if (patch.secret !== undefined) out.secret = patch.secret;
  if (patch.previousSecret !== undefined) out.previous_secret = patch.previousSecret;
  if (patch.previousSecretUntil !== undefined) out.previous_secret_until = patch.previousSecretUntil;
  if (patch.status !== undefined) out.status = patch.status;
  if (patch.disabledReason !== undefined) out.disabled_reason = patch.disabledReason;
  if (patch.failingSince !== undefined) out.failing_since = patch.failingSince;
  if (patch.consecutiveFailures !== undefined) out.consecutive_failures = patch.consecutiveFailures;
  if (patch.pausedReason !== undefined) out.paused_reason = patch.pausedReason;
  if (patch.pausedAt !== undefined) out.paused_at = patch.pausedAt;
  if (patch.probeAt !== undefined) out.probe_at = patch.probeAt;
  if (patch.updatedAt !== undefined) out.updated_at = patch.updatedAt;
  return out;
}

function toDelivery(row: DeliveriesTable): DeliveryRecord {
  return {
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    type: row.type as WebhookDeliveredType,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    createdAt: num(row.created_at),
    nextAttemptAt: numOrNull(row.next_attempt_at),
    lastAttemptAt: numOrNull(row.last_attempt_at),
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    latencyMs: row.latency_ms === null ? null : Number(row.latency_ms),
    error: row.error,
  };
}

/** Rows updated by one statement: a bound JSON parameter each engine expands, like bulkInsert. */
const UPDATE_CHUNK = 2_000;

function attemptsUpdate(engine: Engine, json: string) {
  if (engine === 'sqlite') {
    return sql`update webhook_deliveries set status = j.status, attempts = j.attempts,
      next_attempt_at = j.next_attempt_at,
      last_attempt_at = coalesce(j.last_attempt_at, webhook_deliveries.last_attempt_at),
      response_status = case when j.last_attempt_at is null then webhook_deliveries.response_status else j.response_status end,
      latency_ms = case when j.last_attempt_at is null then webhook_deliveries.latency_ms else j.latency_ms end,
      error = case when j.last_attempt_at is null then webhook_deliveries.error else j.error end
      from (select json_extract(value, '$.p') as endpoint_id, json_extract(value, '$.e') as event_id,
        json_extract(value, '$.s') as status, json_extract(value, '$.a') as attempts,
        json_extract(value, '$.n') as next_attempt_at, json_extract(value, '$.l') as last_attempt_at,
        json_extract(value, '$.r') as response_status, json_extract(value, '$.m') as latency_ms,
        json_extract(value, '$.x') as error from json_each(${json})) as j
      where webhook_deliveries.endpoint_id = j.endpoint_id and webhook_deliveries.event_id = j.event_id`;
  }
  return sql`update webhook_deliveries as d set status = j.s, attempts = j.a, next_attempt_at = j.n,
      last_attempt_at = coalesce(j.l, d.last_attempt_at),
      response_status = case when j.l is null then d.response_status else j.r end,
      latency_ms = case when j.l is null then d.latency_ms else j.m end,
      error = case when j.l is null then d.error else j.x end
      from json_to_recordset(${json}::json) as j(p text, e text, s text, a integer, n bigint, l bigint, r integer, m integer, x text)
      where d.endpoint_id = j.p and d.event_id = j.e`;
}

interface FairClaim {
  nowMs: number;
  limit: number;
  perEndpoint: number;
  /** The largest room (SQLite reads this many of each endpoint's, then keeps its room). */
  most: number;
  /** JSON `[{i: endpoint id, n: its room}]`: only these endpoints; undefined: every one, perEndpoint each. */
  rooms: string | undefined;
}

type Claimable = { endpoint_id: string; event_id: string; type: string; attempts: number };

/**
 * The fair claim's choice (see WebhookStore.claimDue), in the order taken: for each active
 * endpoint, its oldest due deliveries up to its room (read from the index of its pending
 * deliveries by due time, so a long backlog is never scanned), ranked within the endpoint;
 * then the first of every endpoint, the second of every endpoint…, up to `limit` (ties in due
 * time: on SQLite, in the order stored). PostgreSQL
 * reads each endpoint's with a lateral join, locking them and skipping rows another claimer
 * holds; SQLite, with no lateral join, by rowid (one writer at a time: nothing to skip), the
 * endpoints first (CROSS JOIN keeps that order: else SQLite may scan every delivery).
 */
function fairChoice(engine: Engine, c: FairClaim) {
  if (engine === 'sqlite') {
    return sql<Claimable & { rid: number }>`
      select rid, endpoint_id, event_id, type, attempts from (
        select d.rowid as rid, d.endpoint_id, d.event_id, d.type, d.attempts, d.next_attempt_at as at, r.room,
          row_number() over (partition by d.endpoint_id order by d.next_attempt_at, d.rowid) as rk
        from ${
          c.rooms === undefined
            ? sql`(select e.id, ${c.perEndpoint} as room from webhook_endpoints e where e.status = 'active')`
            : sql`(select e.id, json_extract(j.value, '$.n') as room from json_each(${c.rooms}) j
                join webhook_endpoints e on e.id = json_extract(j.value, '$.i') where e.status = 'active')`
        } r
        cross join webhook_deliveries d on d.rowid in (
          select x.rowid from webhook_deliveries x
          where x.endpoint_id = r.id and x.status = 'pending' and x.next_attempt_at <= ${c.nowMs}
          order by x.next_attempt_at, x.rowid limit ${c.most})
        where r.room > 0)
      where rk <= room order by rk, at, rid limit ${c.limit}`;
  }
  return sql<Claimable & { rid: number }>`
    select 0 as rid, p.endpoint_id, p.event_id, p.type, p.attempts from (
      select d.endpoint_id, d.event_id, d.type, d.attempts, d.next_attempt_at,
        row_number() over (partition by d.endpoint_id order by d.next_attempt_at) as rk
      from ${
        c.rooms === undefined
          ? sql`(select e.id, ${c.perEndpoint}::integer as room from webhook_endpoints e where e.status = 'active')`
          : sql`(select e.id, j.n as room from json_to_recordset(${c.rooms}::json) as j(i text, n integer)
              join webhook_endpoints e on e.id = j.i where e.status = 'active')`
      } r
      cross join lateral (
        select x.endpoint_id, x.event_id, x.type, x.attempts, x.next_attempt_at from webhook_deliveries x
        where x.endpoint_id = r.id and x.status = 'pending' and x.next_attempt_at <= ${c.nowMs}
        order by x.next_attempt_at limit r.room
        for update skip locked) d
      where r.room > 0) p
    order by p.rk, p.next_attempt_at, p.endpoint_id limit ${c.limit}`;
}

/** Holds the chosen deliveries until `heldUntil` (in the choice's transaction). */
function holdChosen(engine: Engine, chosen: readonly (Claimable & { rid: number })[], heldUntil: number) {
  if (engine === 'sqlite') {
    return sql`update webhook_deliveries set next_attempt_at = ${heldUntil}
      where rowid in (select value from json_each(${JSON.stringify(chosen.map((r) => r.rid))}))`;
  }
  const keys = JSON.stringify(chosen.map((r) => ({ p: r.endpoint_id, e: r.event_id })));
  return sql`update webhook_deliveries as d set next_attempt_at = ${heldUntil}
    from json_to_recordset(${keys}::json) as j(p text, e text) where d.endpoint_id = j.p and d.event_id = j.e`;
}

type WebhookDb = Db<WebhookSchema>;

/** The claimed rows with their events' bodies; `bodies` keeps those read across claims (see WebhookStore.claimDue). */
async function bodiesOf(
  k: WebhookDb['kysely'],
  rows: readonly { endpoint_id: string; event_id: string; type: string; attempts: number }[],
  bodies = new Map<string, string>(),
) {
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((r) => r.event_id))].filter((id) => !bodies.has(id));
  for (let i = 0; i < ids.length; i += 500) {
    const found = await k
      .selectFrom('webhook_events')
      .select(['id', 'body'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const e of found) bodies.set(e.id, e.body);
  }
  const claimed: ClaimedDelivery[] = [];
  for (const r of rows) {
    const body = bodies.get(r.event_id);
    if (body === undefined) continue;
    claimed.push({
      endpointId: r.endpoint_id,
      eventId: r.event_id,
      type: r.type as WebhookDeliveredType,
      attempts: Number(r.attempts),
      body,
    });
  }
  return claimed;
}

/** Endpoints: registered, read, changed and deleted. */
function endpointRegistry({ kysely: k }: WebhookDb) {
  return {
    async insertEndpoint(e) {
      await k
        .insertInto('webhook_endpoints')
        .values({
          id: e.id,
          key_id: e.keyId,
          url: e.url,
          description: e.description,
          events: JSON.stringify(e.events),
          filters: JSON.stringify(e.filters),
          line_threshold: e.lineThreshold,
          odds_threshold: e.oddsThreshold,
          min_edge: e.minEdge,
          entry: e.entry,
          secret: e.secret,
          previous_secret: e.previousSecret,
          previous_secret_until: e.previousSecretUntil,
          status: e.status,
          disabled_reason: e.disabledReason,
          failing_since: e.failingSince,
          consecutive_failures: e.consecutiveFailures,
          paused_reason: e.pausedReason,
          paused_at: e.pausedAt,
          probe_at: e.probeAt,
          created_at: e.createdAt,
          updated_at: e.updatedAt,
        })
        .execute();
    },

    async endpoint(id) {
      const row = await k.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toEndpoint(row) : undefined;
    },

    async endpointsOf(keyId) {
      const rows = await k
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('key_id', '=', keyId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toEndpoint);
    },

    async allEndpoints() {
      const rows = await k.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(toEndpoint);
    },

    async endpointsVersion() {
      const row = await k
        .selectFrom('webhook_endpoints')
        .select([
          sql<number | string>`count(*)`.as('n'),
          sql<number | string | null>`sum(updated_at)`.as('at'),
          sql<string | null>`max(id)`.as('id'),
        ])
        .executeTakeFirstOrThrow();
      return `${row.n}|${row.at ?? ''}|${row.id ?? ''}`;
    },

    async updateEndpoint(id, patch) {
      const set = endpointColumns(patch);
      if (Object.keys(set).length === 0) return;
      await k.updateTable('webhook_endpoints').set(set).where('id', '=', id).execute();
    },

    async deleteEndpoint(id) {
      return k.transaction().execute(async (trx) => {
        await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
        const result = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },
  } satisfies Partial<WebhookStore>;
}

/** What producers write: events, their deliveries, the production cursors. */
function eventQueue({ kysely: k, engine }: WebhookDb) {
  return {
    async enqueue(events, deliveries, cursor) {
      if (events.length === 0 && deliveries.length === 0 && !cursor) return;
      await k.transaction().execute(async (trx) => {
        await bulkInsert(
          trx,
          engine,
          'webhook_events',
          events.map((e) => ({ id: e.id, type: e.type, body: e.body, created_at: e.createdAt })),
          { ignoreConflicts: true },
        );
        await bulkInsert(
          trx,
          engine,
          'webhook_deliveries',
          deliveries.map((d) => ({
            endpoint_id: d.endpointId,
            event_id: d.eventId,
            type: d.type,
            status: 'pending',
            attempts: 0,
            created_at: d.createdAt,
            next_attempt_at: d.dueAt,
            last_attempt_at: null,
            response_status: null,
            latency_ms: null,
            error: null,
          })),
          { ignoreConflicts: true },
        );
        if (cursor) {
          await trx
            .insertInto('webhook_cursor')
            .values({ name: cursor.name, version: cursor.version, updated_at: cursor.at })
            .onConflict((oc) => oc.column('name').doUpdateSet({ version: cursor.version, updated_at: cursor.at }))
            .execute();
        }
      });
    },

    async cursor(name) {
      const row = await k.selectFrom('webhook_cursor').select('version').where('name', '=', name).executeTakeFirst();
      return row ? Number(row.version) : undefined;
    },
  } satisfies Partial<WebhookStore>;
}

/** Deliveries taken for an attempt, and when the next is due. */
function deliveryClaims({ kysely: k, engine }: WebhookDb) {
  return {
    async claimDue(nowMs, heldUntil, limit, bodies, shares) {
      const clamp = (n: number) => Math.max(0, Math.min(limit, Math.floor(n)));
      const perEndpoint = clamp(shares?.perEndpoint ?? limit);
      const asked = [...(shares?.rooms ?? [])].map(([i, n]) => ({ i, n: clamp(n) }));
      const most = Math.max(perEndpoint, ...asked.map((r) => r.n));
      const rooms = shares?.rooms === undefined ? undefined : JSON.stringify(asked);
      const chosen = await k.transaction().execute(async (trx) => {
        const { rows } = await fairChoice(engine, { nowMs, limit, perEndpoint, most, rooms }).execute(trx);
        if (rows.length > 0) await holdChosen(engine, rows, heldUntil).execute(trx);
        return rows;
      });
      return bodiesOf(k, chosen, bodies);
    },

    async claimOldest(endpointId, heldUntil) {
      const oldest = await k
        .selectFrom('webhook_deliveries')
        .select('event_id')
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'pending')
        .orderBy('next_attempt_at')
        .orderBy('event_id')
        .limit(1)
        .executeTakeFirst();
      if (!oldest) return undefined;
      const result = await k
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: heldUntil })
        .where('endpoint_id', '=', endpointId)
        .where('event_id', '=', oldest.event_id)
        .where('status', '=', 'pending')
        .returning(['endpoint_id', 'event_id', 'type', 'attempts'])
        .execute();
      return (await bodiesOf(k, result))[0];
    },

    async claimOne(endpointId, eventId, heldUntil) {
      const result = await k
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: heldUntil })
        .where('endpoint_id', '=', endpointId)
        .where('event_id', '=', eventId)
        .returning(['endpoint_id', 'event_id', 'type', 'attempts'])
        .execute();
      return (await bodiesOf(k, result))[0];
    },

    async nextDueAt() {
      const row = await k
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .select(sql<number | string | null>`min(d.next_attempt_at)`.as('at'))
        .where('d.status', '=', 'pending')
        .where('e.status', '=', 'active')
        .executeTakeFirst();
      return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
    },
  } satisfies Partial<WebhookStore>;
}

/** Each delivery's outcome: attempts recorded, read back, failed with their endpoint, pruned when old. */
function deliveryLog({ kysely: k, engine }: WebhookDb) {
  return {
    async recordAttempts(updates) {
      for (let i = 0; i < updates.length; i += UPDATE_CHUNK) {
        const json = JSON.stringify(
          updates.slice(i, i + UPDATE_CHUNK).map((u) => ({
            p: u.endpointId,
            e: u.eventId,
            s: u.status,
            a: u.attempts,
            n: u.nextAttemptAt,
            l: u.lastAttemptAt,
            r: u.responseStatus,
            m: u.latencyMs,
            x: u.error,
          })),
        );
        await attemptsUpdate(engine, json).execute(k);
      }
    },

    async deliveries(endpointId, page) {
      let query = k.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId);
      if (page.status !== undefined) query = query.where('status', '=', page.status);
      const before = page.before;
      if (before !== undefined) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', before.createdAt),
            eb.and([eb('created_at', '=', before.createdAt), eb('event_id', '<', before.eventId)]),
          ]),
        );
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('event_id', 'desc').limit(page.limit).execute();
      return rows.map(toDelivery);
    },

    async delivery(endpointId, eventId) {
      const row = await k
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('endpoint_id', '=', endpointId)
        .where('event_id', '=', eventId)
        .executeTakeFirst();
      return row ? toDelivery(row) : undefined;
    },

    async failPending(endpointId, error, atMs) {
      const result = await k
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', next_attempt_at: null, error, last_attempt_at: atMs })
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async prune(beforeMs) {
      return k.transaction().execute(async (trx) => {
        const gone = await trx
          .deleteFrom('webhook_deliveries')
          .where('status', '<>', 'pending')
          .where('created_at', '<', beforeMs)
          .executeTakeFirst();
        await trx
          .deleteFrom('webhook_events')
          .where('created_at', '<', beforeMs)
          .where((eb) =>
            eb.not(
              eb.exists(
                eb.selectFrom('webhook_deliveries').select('event_id').whereRef('event_id', '=', 'webhook_events.id'),
              ),
            ),
          )
          .execute();
        return Number(gone.numDeletedRows);
      });
    },
  } satisfies Partial<WebhookStore>;
}

/** Games waiting to settle. */
function settlementWatchList({ kysely: k }: WebhookDb) {
  return {
    async watchSettlements(watches) {
      if (watches.length === 0) return;
      await k
        .insertInto('webhook_settlements')
        .values(watches.map((w) => ({ game_id: w.gameId, sport: w.sport, date: w.date, final_at: w.finalAt })))
        .onConflict((oc) => oc.column('game_id').doNothing())
        .execute();
    },

    async settlementWatches() {
      const rows = await k.selectFrom('webhook_settlements').selectAll().orderBy('final_at').execute();
      return rows.map((r) => ({ gameId: r.game_id, sport: r.sport, date: r.date, finalAt: num(r.final_at) }));
    },

    async dropSettlementWatch(gameId) {
      await k.deleteFrom('webhook_settlements').where('game_id', '=', gameId).execute();
    },
  } satisfies Partial<WebhookStore>;
}

/** The store's methods come in parts by concern (above), each checked against WebhookStore. */
export function createWebhookStore(store: Db): WebhookStore {
  const db = store as unknown as WebhookDb;
  return {
    ...endpointRegistry(db),
    ...eventQueue(db),
    ...deliveryClaims(db),
    ...deliveryLog(db),
    ...settlementWatchList(db),
  };
}
