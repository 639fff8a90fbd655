/**
 * One delivery attempt, start to end: re-check the endpoint's address (a name may resolve
 * elsewhere by now), sign with every secret in force, send, and judge the answer against the
 * retry schedule. What the attempt means for its endpoint (a success clears its failing
 * streak; a 410, or failing for 5 days, disables it) is applied by `applyToEndpoint`.
 */
import { WEBHOOK_DISABLE_AFTER_DAYS } from '@propsfeed/contract';
import type { WebhookClock } from './clock';
import { parseRetryAfter, verdictOf } from './schedule';
import type { Sender } from './sender';
import { webhookHeaders } from './sign';
import type { ClaimedDelivery, DeliveryUpdate, EndpointRecord, WebhookStore } from './store';
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

/**
 * The endpoint's state after an attempt's effect, written to the store when it changes; the
 * record (the caller's cached copy) is updated in place. Disabling fails its pending deliveries.
 */
export async function applyToEndpoint(
  store: WebhookStore,
  endpoint: EndpointRecord,
  effect: EndpointEffect,
  nowMs: number,
): Promise<void> {
  if (effect === 'succeeded') {
    if (endpoint.failingSince === null) return;
    endpoint.failingSince = null;
    await store.updateEndpoint(endpoint.id, { failingSince: null });
    return;
  }
  let reason: string | undefined;
  if (effect === 'gone') reason = 'the receiver answered 410 Gone';
  else if (endpoint.failingSince === null) {
    endpoint.failingSince = nowMs;
    await store.updateEndpoint(endpoint.id, { failingSince: nowMs });
    return;
  } else if (nowMs - endpoint.failingSince >= DISABLE_AFTER_MS) {
    reason = `every delivery failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days (since ${new Date(endpoint.failingSince).toISOString()})`;
  }
  if (reason === undefined || endpoint.status === 'disabled') return;
  endpoint.status = 'disabled';
  endpoint.disabledReason = reason;
  await store.updateEndpoint(endpoint.id, { status: 'disabled', disabledReason: reason, updatedAt: nowMs });
  await store.failPending(endpoint.id, `not sent: the endpoint was disabled (${reason})`, nowMs);
}
