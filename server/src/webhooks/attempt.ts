/**
 * One delivery attempt, start to end: re-check the endpoint's address (a name may resolve
 * elsewhere by now), sign with every secret in force, send, and judge the answer against the
 * retry schedule. What the attempt means for its endpoint is applied by `applyToEndpoint`: a
 * success clears its failing run (and resumes it if the service had paused it); a run of
 * failures pauses it (the circuit breaker, with a `webhook.paused` event); a 410, or failing
 * for 5 days, disables it.
 */
import {
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_PAUSE_AFTER_FAILURES,
  WEBHOOK_PAUSE_MIN_SECONDS,
  WEBHOOK_PROBE_AFTER_SECONDS,
  WEBHOOK_PROBE_MAX_SECONDS,
  type WebhookDeliveredType,
} from '@propsfeed/contract';
import type { WebhookClock } from './clock';
import { messageId } from './events';
import { parseRetryAfter, verdictOf } from './schedule';
import type { Sender } from './sender';
import { webhookHeaders } from './sign';
import type { ClaimedDelivery, DeliveryUpdate, EndpointRecord, EventRecord, WebhookStore } from './store';
import { checkTarget, type TargetPolicy } from './targets';

export interface AttemptDeps {
  sender: Sender;
  targets: TargetPolicy;
  clock: WebhookClock;
  /** In [0, 1): the retry jitter. */
  random: () => number;
  /**
   * The real time, for `webhook-timestamp` (receivers check it against their own clock); the
   * webhook clock above only schedules.
   */
  wallNow: () => number;
}

export type EndpointEffect = 'succeeded' | 'failed' | 'gone';

export interface AttemptResult {
  update: DeliveryUpdate;
  effect: EndpointEffect;
}

/** The secrets that sign now: the current one, and the previous one until its rotation grace ends. */
export function secretsInForce(endpoint: EndpointRecord, nowMs: number): string[] {
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretUntil !== null && endpoint.previousSecretUntil > nowMs) {
    secrets.push(endpoint.previousSecret);
  }
  return secrets;
}

/** Makes one attempt of the claimed delivery to the endpoint; never throws. */
export async function attemptDelivery(
  claimed: ClaimedDelivery,
  endpoint: EndpointRecord,
  deps: AttemptDeps,
): Promise<AttemptResult> {
  const attempts = claimed.attempts + 1;
  const startedAt = deps.clock.now();
  const check = await checkTarget(endpoint.url, deps.targets);
  let status: number | null = null;
  let error: string | null;
  let latencyMs: number | null = null;
  let retryAfterSeconds: number | undefined;
  if (!check.ok) {
    error = `not sent: ${check.reason}`;
  } else {
    const headers = webhookHeaders(
      secretsInForce(endpoint, startedAt),
      claimed.eventId,
      Math.floor(deps.wallNow() / 1000),
      claimed.body,
    );
    const sent = await deps.sender({ target: check.target, headers, body: claimed.body });
    status = sent.status;
    error = sent.error;
    latencyMs = sent.latencyMs;
    retryAfterSeconds = parseRetryAfter(sent.retryAfter, deps.clock.now());
  }
  const at = deps.clock.now();
  const verdict = verdictOf({ status, retryAfterSeconds }, attempts, at, deps.random());
  const base = {
    endpointId: claimed.endpointId,
    eventId: claimed.eventId,
    attempts,
    lastAttemptAt: at,
    responseStatus: status,
    latencyMs,
  };
  switch (verdict.kind) {
    case 'succeeded':
      return { update: { ...base, status: 'succeeded', nextAttemptAt: null, error: null }, effect: 'succeeded' };
    case 'gone':
      return {
        update: {
          ...base,
          status: 'failed',
          nextAttemptAt: null,
          error: 'answered 410 Gone: the endpoint is disabled',
        },
        effect: 'gone',
      };
    case 'retry':
      return { update: { ...base, status: 'pending', nextAttemptAt: verdict.atMs, error }, effect: 'failed' };
    case 'failed':
      return {
        update: { ...base, status: 'failed', nextAttemptAt: null, error: `${error ?? 'failed'} (retries spent)` },
        effect: 'failed',
      };
  }
}

const DISABLE_AFTER_MS = WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000;
const PAUSE_MIN_MS = WEBHOOK_PAUSE_MIN_SECONDS * 1000;
const PROBE_AFTER_MS = WEBHOOK_PROBE_AFTER_SECONDS * 1000;
const PROBE_MAX_MS = WEBHOOK_PROBE_MAX_SECONDS * 1000;

/** Paused by the service (not by its owner): events are still stored for it, and it is probed. */
export const pausedByService = (e: EndpointRecord): boolean => e.status === 'paused' && e.pausedReason !== null;

/** Whether new events are stored for the endpoint: active, or held paused by the service. */
export const takesEvents = (e: EndpointRecord): boolean => e.status === 'active' || pausedByService(e);

/** When a paused endpoint is next probed after a failure at `nowMs`: as long again as it has been paused. */
export function nextProbeAt(endpoint: EndpointRecord, nowMs: number): number {
  const paused = nowMs - (endpoint.pausedAt ?? nowMs);
  return nowMs + Math.min(PROBE_MAX_MS, Math.max(PROBE_AFTER_MS, paused));
}

/** The `webhook.paused` event for an endpoint the service just paused. */
export function pausedEvent(endpoint: EndpointRecord, nowMs: number): EventRecord {
  const type: WebhookDeliveredType = 'webhook.paused';
  const reason = endpoint.pausedReason ?? 'paused';
  const data = {
    webhookId: endpoint.id,
    url: endpoint.url,
    reason,
    pausedAt: new Date(nowMs).toISOString(),
    consecutiveFailures: endpoint.consecutiveFailures,
    nextProbeAt: new Date(endpoint.probeAt ?? nowMs).toISOString(),
    message: `webhook ${endpoint.id} (${endpoint.url}) is paused: ${reason}. Its events are kept and sent once it answers again; its oldest pending delivery is tried at ${new Date(endpoint.probeAt ?? nowMs).toISOString()}, or resume it now with PATCH {"status": "active"}`,
  };
  const body = JSON.stringify({ type, timestamp: new Date(nowMs).toISOString(), data });
  return { id: messageId(type, endpoint.id, nowMs), type, body, createdAt: nowMs };
}

/**
 * Pauses the endpoint (the circuit opens): its state written, and `webhook.paused` stored for
 * it (sent when it answers again) and for every other endpoint of its key that takes events.
 */
async function pause(store: WebhookStore, endpoint: EndpointRecord, nowMs: number, error: string): Promise<void> {
  const since = new Date(endpoint.failingSince ?? nowMs).toISOString();
  endpoint.status = 'paused';
  endpoint.pausedReason = `${endpoint.consecutiveFailures} attempts in a row failed (since ${since}), the last: ${error}`;
  endpoint.pausedAt = nowMs;
  endpoint.probeAt = nowMs + PROBE_AFTER_MS;
  await store.updateEndpoint(endpoint.id, {
    status: 'paused',
    pausedReason: endpoint.pausedReason,
    pausedAt: nowMs,
    probeAt: endpoint.probeAt,
    consecutiveFailures: endpoint.consecutiveFailures,
    updatedAt: Math.max(nowMs, endpoint.updatedAt + 1),
  });
  const event = pausedEvent(endpoint, nowMs);
  const siblings = (await store.endpointsOf(endpoint.keyId)).filter((e) => e.id !== endpoint.id && takesEvents(e));
  await store.enqueue(
    [event],
    [endpoint, ...siblings].map((e) => ({
      endpointId: e.id,
      eventId: event.id,
      type: event.type,
      createdAt: nowMs,
      dueAt: nowMs,
    })),
  );
}

/**
 * The endpoint's state after an attempt's effect, written to the store when it changes; the
 * record (the caller's cached copy) is updated in place. A success ends its failing run and
 * resumes it if the service had paused it; the run's WEBHOOK_PAUSE_AFTER_FAILURES-th failure,
 * WEBHOOK_PAUSE_MIN_SECONDS or more after its first, pauses it; a failure while paused moves its
 * next probe on. Disabling (410 Gone, or failing for 5 days) fails its pending deliveries.
 */
export async function applyToEndpoint(
  store: WebhookStore,
  endpoint: EndpointRecord,
  effect: EndpointEffect,
  nowMs: number,
  error?: string | null,
): Promise<void> {
  if (effect === 'succeeded') {
    const resumed = pausedByService(endpoint);
    if (endpoint.failingSince === null && endpoint.consecutiveFailures === 0 && !resumed) return;
    endpoint.failingSince = null;
    endpoint.consecutiveFailures = 0;
    const patch: Partial<EndpointRecord> = { failingSince: null, consecutiveFailures: 0 };
    if (resumed) {
      Object.assign(patch, { status: 'active', pausedReason: null, pausedAt: null, probeAt: null });
      patch.updatedAt = Math.max(nowMs, endpoint.updatedAt + 1);
      Object.assign(endpoint, patch);
    }
    await store.updateEndpoint(endpoint.id, patch);
    return;
  }
  let reason: string | undefined;
  if (effect === 'gone') reason = 'the receiver answered 410 Gone';
  else {
    endpoint.consecutiveFailures++;
    const first = endpoint.failingSince === null;
    if (first) endpoint.failingSince = nowMs;
    const since = endpoint.failingSince ?? nowMs;
    if (nowMs - since >= DISABLE_AFTER_MS) {
      reason = `every delivery failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days (since ${new Date(since).toISOString()})`;
    } else if (
      endpoint.status === 'active' &&
      endpoint.consecutiveFailures >= WEBHOOK_PAUSE_AFTER_FAILURES &&
      nowMs - since >= PAUSE_MIN_MS
    ) {
      await pause(store, endpoint, nowMs, error ?? 'no answer');
      return;
    } else {
      const patch: Partial<EndpointRecord> = { consecutiveFailures: endpoint.consecutiveFailures };
      if (first) patch.failingSince = nowMs;
      if (pausedByService(endpoint)) {
        endpoint.probeAt = nextProbeAt(endpoint, nowMs);
        patch.probeAt = endpoint.probeAt;
      }
      await store.updateEndpoint(endpoint.id, patch);
      return;
    }
  }
  if (endpoint.status === 'disabled') return;
  endpoint.status = 'disabled';
  endpoint.disabledReason = reason;
  endpoint.pausedReason = null;
  endpoint.probeAt = null;
  await store.updateEndpoint(endpoint.id, {
    status: 'disabled',
    disabledReason: reason,
    pausedReason: null,
    pausedAt: null,
    probeAt: null,
    updatedAt: nowMs,
  });
  await store.failPending(endpoint.id, `not sent: the endpoint was disabled (${reason})`, nowMs);
}
