/**
 * Webhooks for the routes and the app: endpoint administration for a caller (register, list,
 * change, delete, rotate the secret, ping, read the delivery log, retry). The background work
 * of the replica that delivers is delivery.ts; this service starts and stops it.
 */
import { randomBytes } from 'node:crypto';
import {
  type CreatedWebhook,
  type CreateWebhookRequest,
  DEFAULT_LINE_THRESHOLD,
  DEFAULT_ODDS_THRESHOLD,
  isStatKey,
  type RotatedSecret,
  type SportId,
  type UpdateWebhookRequest,
  WEBHOOK_OLD_SECRET_HOURS,
  type Webhook,
  type WebhookDeliveries,
  type WebhookDelivery,
  type WebhookFilters,
  type WebhookList,
} from '@propsfeed/contract';
import { assertSport } from '../auth/access';
import type { Caller } from '../auth/caller';
import { ApiError } from '../errors/apiError';
import { randomBase62 } from '../keys/format';
import { tierWithMoreWebhooks } from '../limits/policy';
import type { QueryDeps } from '../queries/deps';
import { entryTypeOf } from '../queries/edges';
import { seriallyByKey } from '../util/serially';
import { applyToEndpoint, attemptDelivery, pausedByService } from './attempt';
import { systemClock, type WebhookClock } from './clock';
import { DeliveryWork, type DeliveryWorkDeps } from './delivery';
import { messageId } from './events';
import { generateSecret } from './sign';
import {
  type DeliveryRecord,
  type EndpointRecord,
  type EventRecord,
  NEW_ENDPOINT_STATE,
  type WebhookStore,
} from './store';
import { checkTarget } from './targets';

// Declared beside the work they configure; named here too, where the app and the runtime take them.
export type { Leadership, WebhookOptions } from './delivery';

export interface WebhookServiceDeps extends Omit<DeliveryWorkDeps, 'clock' | 'views'> {
  clock?: WebhookClock;
  queries: QueryDeps;
}

const HOLD_MS = 30_000;

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function pingEvent(endpointId: string, nowMs: number): EventRecord {
  const body = JSON.stringify({
    type: 'ping',
    timestamp: iso(nowMs),
    data: { webhookId: endpointId, message: 'propsfeed test ping: this endpoint is reachable and verifies' },
  });
  return {
    id: messageId('ping', endpointId, nowMs, randomBytes(8).toString('hex')),
    type: 'ping',
    body,
    createdAt: nowMs,
  };
}

/**
 * The webhooks as the routes and the app see them: a caller's endpoints (register, list,
 * change, delete, rotate the secret, ping, read the delivery log, retry), and the delivery
 * work (delivery.ts) it starts and stops.
 */
export class WebhookService {
  readonly store: WebhookStore;
  readonly clock: WebhookClock;
  private readonly delivery: DeliveryWork;
  /** A key's registrations in turn, so concurrent POSTs cannot pass its endpoint cap together. */
  private readonly inKeyTurn = seriallyByKey();

  constructor(private readonly deps: WebhookServiceDeps) {
    this.store = deps.store;
    this.clock = deps.clock ?? systemClock();
    const { queries, ...rest } = deps;
    this.delivery = new DeliveryWork({ ...rest, clock: this.clock, views: queries.views });
  }

  /** Starts the background work wherever this replica leads webhooks. */
  start(): void {
    this.delivery.start();
  }

  stop(): Promise<void> {
    return this.delivery.stop();
  }

  /** Every change handed over so far is stored (tests). */
  produced(): Promise<void> {
    return this.delivery.produced();
  }

  // ---- Administration, for one caller ----

  private webhookOf(e: EndpointRecord, caller: Caller): Webhook {
    return {
      id: e.id,
      url: e.url,
      description: e.description,
      events: e.events,
      filters: e.filters,
      thresholds: { line: e.lineThreshold, odds: e.oddsThreshold },
      minEdge: e.minEdge,
      entry: e.entry,
      status: e.status,
      disabledReason: e.disabledReason,
      pausedReason: e.status === 'paused' ? e.pausedReason : null,
      pausedAt: e.status === 'paused' && e.pausedReason !== null ? isoOrNull(e.pausedAt) : null,
      nextProbeAt: e.status === 'paused' && e.pausedReason !== null ? isoOrNull(e.probeAt) : null,
      failingSince: isoOrNull(e.failingSince),
      eventsPerMinute: caller.policy.webhookEventsPerMinute,
      previousSecretExpiresAt:
        e.previousSecretUntil !== null && e.previousSecretUntil > this.clock.now() ? iso(e.previousSecretUntil) : null,
      createdAt: iso(e.createdAt),
      updatedAt: iso(e.updatedAt),
    };
  }

  /** The caller's endpoint, or the 404 (another key's endpoint is not found either). */
  private async own(caller: Caller, id: string): Promise<EndpointRecord> {
    const endpoint = await this.store.endpoint(id);
    if (!endpoint || endpoint.keyId !== caller.keyId) {
      throw new ApiError('not_found', `no webhook ${id} on this key; list yours with GET /api/v1/webhooks`);
    }
    return endpoint;
  }

  /** The filters, checked against the caller's tier and the catalog. */
  private checkFilters(caller: Caller, filters: WebhookFilters): WebhookFilters {
    for (const sport of filters.sports ?? []) assertSport(caller, sport);
    const sports = filters.sports ?? (caller.policy.sports === 'all' ? undefined : caller.policy.sports);
    for (const stat of filters.stats ?? []) {
      const known = sports ? sports.some((s) => isStatKey(s as SportId, stat)) : true;
      if (!known) {
        throw new ApiError('invalid_request', `filters.stats: '${stat}' is not a stat key of ${sports?.join(', ')}`);
      }
    }
    const unique = <T>(list: readonly T[] | undefined) => (list ? [...new Set(list)] : undefined);
    const out: WebhookFilters = {};
    for (const key of ['sports', 'stats', 'players', 'books', 'games'] as const) {
      const list = unique(filters[key] as readonly string[] | undefined);
      if (list) (out as Record<string, string[]>)[key] = list;
    }
    return out;
  }

  private async checkUrl(url: string): Promise<void> {
    const check = await checkTarget(url, this.delivery.attemptDeps.targets);
    if (!check.ok) throw new ApiError('invalid_request', `url: ${check.reason}`);
  }

  private checkEdgeFields(events: readonly string[], minEdge: number | null, entry: string | null): void {
    if (events.includes('prop.edge') && minEdge === null) {
      throw new ApiError('invalid_request', 'minEdge: prop.edge needs the edge to watch for, e.g. "minEdge": 0.03');
    }
    if (entry !== null) entryTypeOf(this.deps.queries, entry);
  }

  create(caller: Caller, input: CreateWebhookRequest): Promise<CreatedWebhook> {
    return this.inKeyTurn(caller.keyId, () => this.createNow(caller, input));
  }

  private async createNow(caller: Caller, input: CreateWebhookRequest): Promise<CreatedWebhook> {
    const existing = await this.store.endpointsOf(caller.keyId);
    const max = caller.policy.maxWebhooks;
    if (existing.length >= max) {
      const requiredTier = tierWithMoreWebhooks(existing.length);
      throw new ApiError(
        'too_many_webhooks',
        `this key already has ${existing.length} webhook endpoint${existing.length === 1 ? '' : 's'}, the ${caller.tier} tier's most; delete one first`,
        requiredTier ? { requiredTier } : {},
      );
    }
    const filters = this.checkFilters(caller, input.filters ?? {});
    const minEdge = input.minEdge ?? null;
    const entry = input.entry ?? null;
    this.checkEdgeFields(input.events, minEdge, entry);
    await this.checkUrl(input.url);
    const now = this.clock.now();
    // Listed in the order registered, even when two land in the same millisecond.
    const createdAt = Math.max(now, ...existing.map((e) => e.createdAt + 1));
    const endpoint: EndpointRecord = {
      id: `wh_${randomBase62(24)}`,
      keyId: caller.keyId,
      url: input.url,
      description: input.description ?? null,
      events: [...input.events],
      filters,
      lineThreshold: input.thresholds?.line ?? DEFAULT_LINE_THRESHOLD,
      oddsThreshold: input.thresholds?.odds ?? DEFAULT_ODDS_THRESHOLD,
      minEdge,
      entry,
      secret: generateSecret(),
      ...NEW_ENDPOINT_STATE,
      createdAt,
      updatedAt: now,
    };
    await this.store.insertEndpoint(endpoint);
    this.delivery.endpoints.invalidate();
    return { ...this.webhookOf(endpoint, caller), secret: endpoint.secret };
  }

  async list(caller: Caller): Promise<WebhookList> {
    const endpoints = await this.store.endpointsOf(caller.keyId);
    return {
      count: endpoints.length,
      max: caller.policy.maxWebhooks,
      webhooks: endpoints.map((e) => this.webhookOf(e, caller)),
    };
  }

  async get(caller: Caller, id: string): Promise<Webhook> {
    return this.webhookOf(await this.own(caller, id), caller);
  }

  async update(caller: Caller, id: string, input: UpdateWebhookRequest): Promise<Webhook> {
    const endpoint = await this.own(caller, id);
    const patch: Partial<EndpointRecord> = {};
    if (input.url !== undefined) {
      await this.checkUrl(input.url);
      patch.url = input.url;
    }
    if (input.events !== undefined) patch.events = [...input.events];
    if (input.filters !== undefined) patch.filters = this.checkFilters(caller, input.filters ?? {});
    if (input.description !== undefined) patch.description = input.description;
    if (input.thresholds?.line !== undefined) patch.lineThreshold = input.thresholds.line;
    if (input.thresholds?.odds !== undefined) patch.oddsThreshold = input.thresholds.odds;
    if (input.minEdge !== undefined) patch.minEdge = input.minEdge;
    if (input.entry !== undefined) patch.entry = input.entry;
    this.checkEdgeFields(
      patch.events ?? endpoint.events,
      patch.minEdge !== undefined ? patch.minEdge : endpoint.minEdge,
      patch.entry !== undefined ? patch.entry : endpoint.entry,
    );
    // Paused by the service, PATCH {"status": "paused"} makes it paused by its owner (no events).
    if (input.status !== undefined && (input.status !== endpoint.status || endpoint.pausedReason !== null)) {
      patch.status = input.status;
      Object.assign(patch, { pausedReason: null, pausedAt: null, probeAt: null });
      if (input.status === 'active') {
        patch.disabledReason = null;
        patch.failingSince = null;
        patch.consecutiveFailures = 0;
      }
    }
    patch.updatedAt = Math.max(this.clock.now(), endpoint.updatedAt + 1);
    await this.store.updateEndpoint(id, patch);
    this.delivery.endpoints.invalidate();
    if (patch.status === 'active') this.delivery.kick();
    return this.webhookOf({ ...endpoint, ...patch }, caller);
  }

  async delete(caller: Caller, id: string): Promise<void> {
    await this.own(caller, id);
    await this.store.deleteEndpoint(id);
    this.delivery.endpoints.invalidate();
  }

  async rotateSecret(caller: Caller, id: string): Promise<RotatedSecret> {
    const endpoint = await this.own(caller, id);
    const now = this.clock.now();
    const until = now + WEBHOOK_OLD_SECRET_HOURS * 3_600_000;
    const secret = generateSecret();
    await this.store.updateEndpoint(id, {
      secret,
      previousSecret: endpoint.secret,
      previousSecretUntil: until,
      updatedAt: Math.max(now, endpoint.updatedAt + 1),
    });
    this.delivery.endpoints.invalidate();
    return { id, secret, previousSecretExpiresAt: iso(until) };
  }

  /** Sends a ping now and answers with its first attempt's outcome (a failure is retried as usual). */
  async test(caller: Caller, id: string): Promise<WebhookDelivery> {
    const endpoint = await this.own(caller, id);
    const now = this.clock.now();
    const event = pingEvent(id, now);
    await this.store.enqueue(
      [event],
      [{ endpointId: id, eventId: event.id, type: 'ping', createdAt: now, dueAt: now + HOLD_MS }],
    );
    const claimed = await this.store.claimOne(id, event.id, now + HOLD_MS);
    if (claimed) {
      const { update, effect } = await attemptDelivery(claimed, endpoint, this.delivery.attemptDeps);
      await this.store.recordAttempts([update]);
      const wasPaused = pausedByService(endpoint);
      await applyToEndpoint(this.store, endpoint, effect, this.clock.now(), update.error);
      // A ping answered 2xx resumes an endpoint the service paused.
      if (wasPaused && effect === 'succeeded') this.delivery.endpoints.invalidate();
      if (update.status === 'pending' || wasPaused) this.delivery.kick();
    }
    return this.deliveryOf(await this.mustDelivery(id, event.id));
  }

  async deliveries(
    caller: Caller,
    id: string,
    query: { status?: DeliveryRecord['status'] | undefined; limit: number; before?: string | undefined },
  ): Promise<WebhookDeliveries> {
    await this.own(caller, id);
    let before: { createdAt: number; eventId: string } | undefined;
    if (query.before !== undefined) {
      const at = query.before.indexOf('_');
      before = { createdAt: Number(query.before.slice(0, at)), eventId: query.before.slice(at + 1) };
    }
    const rows = await this.store.deliveries(id, { status: query.status, limit: query.limit, before });
    const last = rows.at(-1);
    return {
      webhookId: id,
      count: rows.length,
      deliveries: rows.map((r) => this.deliveryOf(r)),
      nextBefore: rows.length === query.limit && last ? `${last.createdAt}_${last.eventId}` : null,
    };
  }

  /** Makes the delivery due now, whatever its state; the delivering replica sends it within a second. */
  async retry(caller: Caller, id: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.own(caller, id);
    const claimed = await this.store.claimOne(id, deliveryId, this.clock.now());
    if (!claimed) throw new ApiError('not_found', `no delivery ${deliveryId} to webhook ${id}`);
    const queued = this.deliveryOf(await this.mustDelivery(id, deliveryId));
    this.delivery.kick();
    return queued;
  }

  private async mustDelivery(endpointId: string, eventId: string): Promise<DeliveryRecord> {
    const found = await this.store.delivery(endpointId, eventId);
    if (!found) throw new ApiError('not_found', `no delivery ${eventId} to webhook ${endpointId}`);
    return found;
  }

  private deliveryOf(d: DeliveryRecord): WebhookDelivery {
    return {
      id: d.eventId,
      type: d.type,
      status: d.status,
      attempts: d.attempts,
      createdAt: iso(d.createdAt),
      lastAttemptAt: isoOrNull(d.lastAttemptAt),
      nextAttemptAt: d.status === 'pending' ? isoOrNull(d.nextAttemptAt) : null,
      responseStatus: d.responseStatus,
      latencyMs: d.latencyMs,
      error: d.error,
    };
  }
}
