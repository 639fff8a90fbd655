/**
 * Events per minute per endpoint (its tier's webhookEventsPerMinute). Within each minute an
 * endpoint receives events up to its cap; those past it are not sent but counted, and once the
 * minute is over the endpoint receives one `webhook.capped` event saying how many of which
 * type it missed: never a silent drop. Counts live with the producer (the one replica producing).
 */
import type { WebhookDeliveredType } from '@propsfeed/contract';
import { messageId } from './events';
import type { EventRecord } from './store';

const MINUTE = 60_000;

interface Window {
  start: number;
  sent: number;
  dropped: Map<string, number>;
}

export interface CappedSummary {
  endpointId: string;
  event: EventRecord;
}

/** The summary of one endpoint's capped minute. */
export function cappedEvent(
  endpointId: string,
  limitPerMinute: number,
  from: number,
  dropped: ReadonlyMap<string, number>,
  nowMs: number,
): EventRecord {
  let total = 0;
  for (const n of dropped.values()) total += n;
  const data = {
    webhookId: endpointId,
    limitPerMinute,
    dropped: total,
    droppedByType: Object.fromEntries(dropped),
    from: new Date(from).toISOString(),
    to: new Date(from + MINUTE).toISOString(),
    message: `${total} event${total === 1 ? ' was' : 's were'} not sent: more than ${limitPerMinute} in one minute, this endpoint's cap`,
  };
  const type: WebhookDeliveredType = 'webhook.capped';
  const body = JSON.stringify({ type, timestamp: new Date(nowMs).toISOString(), data });
  return { id: messageId(type, endpointId, from), type, body, createdAt: nowMs };
}

export class EventCaps {
  private readonly windows = new Map<string, Window>();
  /** Minutes over that dropped events, waiting for their summary. */
  private readonly over: { endpointId: string; window: Window }[] = [];

  /** Whether the endpoint may receive one more event now; counts it either way. */
  admit(endpointId: string, type: WebhookDeliveredType, limitPerMinute: number, nowMs: number): boolean {
    const start = nowMs - (nowMs % MINUTE);
    let w = this.windows.get(endpointId);
    if (!w || w.start !== start) {
      if (w && w.dropped.size > 0) this.over.push({ endpointId, window: w });
      w = { start, sent: 0, dropped: new Map() };
      this.windows.set(endpointId, w);
    }
    if (w.sent < limitPerMinute) {
      w.sent++;
      return true;
    }
    w.dropped.set(type, (w.dropped.get(type) ?? 0) + 1);
    return false;
  }

  /** The summaries of minutes over by `nowMs` that dropped events; each is given once. */
  summaries(nowMs: number, limitOf: (endpointId: string) => number): CappedSummary[] {
    for (const [endpointId, w] of this.windows) {
      if (w.start + MINUTE > nowMs) continue;
      this.windows.delete(endpointId);
      if (w.dropped.size > 0) this.over.push({ endpointId, window: w });
    }
    return this.over.splice(0).map(({ endpointId, window: w }) => ({
      endpointId,
      event: cappedEvent(endpointId, limitOf(endpointId), w.start, w.dropped, nowMs),
    }));
  }

  /** Forgets an endpoint (deleted). */
  forget(endpointId: string): void {
    this.windows.delete(endpointId);
  }
}
