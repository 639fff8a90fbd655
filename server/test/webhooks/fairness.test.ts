/**
 * Fair delivery (issue #42): receivers that read the body and never answer cannot delay another
 * key's endpoint. The real dispatcher, store (SQLite), endpoint cache and circuit breaker run on
 * a webhook clock the test moves by hand, 100 ms at a time, through 5 minutes of busy-hour
 * traffic; the network is simulated on that clock: a healthy receiver answers 204 at once, a
 * stalled one never answers, so each attempt to it ends at the 15 s limit, as the HTTP sender
 * ends it. A healthy endpoint of another key gets every event within 2 s; the stalled endpoints
 * are paused after their run of failures (their key's other endpoints told by `webhook.paused`),
 * are probed, resume once they answer again, and in the end every delivery has succeeded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  WEBHOOK_PAUSE_AFTER_FAILURES,
  WEBHOOK_TIMEOUT_SECONDS,
  type WebhookEvent,
  WebhookEventSchema,
} from '@propsfeed/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../src/store/db';
import { Dispatcher } from '../../src/webhooks/dispatcher';
import { EndpointCache } from '../../src/webhooks/endpoints';
import type { Sender, SendResult } from '../../src/webhooks/sender';
import {
  createWebhookStore,
  type EndpointRecord,
  type EventRecord,
  type NewDelivery,
  type WebhookStore,
} from '../../src/webhooks/store';
import { type ManualClock, manualClock } from './clock';
import { endpointRecord } from './records';

const T0 = Date.UTC(2026, 10, 22, 1, 30);
const SEC = 1_000;
const BUSY_MS = 5 * 60 * SEC;
const STEP_MS = 100;
/** The stalled receivers start answering then (they were paused by then). */
const ANSWERS_FROM_MS = 200 * SEC;

interface Arrival {
  id: string;
  type: string;
  at: number;
}

/** A receiver on the simulated network. */
interface SimReceiver {
  path: string;
  answers: boolean;
  arrivals: Arrival[];
}

let dir: string | undefined;
let db: Db | undefined;
let dispatcher: Dispatcher | undefined;
afterEach(async () => {
  await dispatcher?.stop();
  await db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dispatcher = undefined;
  db = undefined;
  dir = undefined;
});

function endpoint(id: string, keyId: string, path: string): EndpointRecord {
  return endpointRecord({
    id,
    keyId,
    url: `http://127.0.0.1:9101/${path}`,
    filters: {},
    secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0',
    createdAt: T0,
    updatedAt: T0,
  });
}

/** The network on the webhook clock: answering receivers answer 5 ms after the request arrives; silent ones never (15 s limit). */
function simulatedSender(clock: ManualClock, receivers: Map<string, SimReceiver>): Sender {
  return ({ target, headers, body }) =>
    new Promise<SendResult>((resolve) => {
      const receiver = receivers.get(target.url.pathname.slice(1));
      if (!receiver) throw new Error(`no receiver at ${target.url.pathname}`);
      const type = (JSON.parse(body) as { type: string }).type;
      if (receiver.answers) {
        receiver.arrivals.push({ id: headers['webhook-id'] as string, type, at: clock.now() });
        clock.after(5, () => resolve({ status: 204, latencyMs: 5, error: null }));
      } else {
        // Reads the body and never answers: the attempt ends at its time limit.
        clock.after(WEBHOOK_TIMEOUT_SECONDS * SEC, () =>
          resolve({ status: null, latencyMs: WEBHOOK_TIMEOUT_SECONDS * SEC, error: 'no answer within 15 s' }),
        );
      }
    });
}

/** Real time for the dispatcher's store work between two moves of the clock. */
const breathe = (ms = 1) => new Promise((r) => setTimeout(r, ms));

async function run(stalledCount: number, stalledRate: number) {
  dir = mkdtempSync(join(tmpdir(), 'propsfeed-fairness-'));
  db = await openDb({ dataDir: dir });
  const store: WebhookStore = createWebhookStore(db);
  const clock = manualClock(T0);
  const receivers = new Map<string, SimReceiver>();
  const add = (e: EndpointRecord, answers: boolean) => {
    const path = e.url.slice(e.url.lastIndexOf('/') + 1);
    receivers.set(path, { path, answers, arrivals: [] });
    return store.insertEndpoint(e);
  };
  // Key A (enterprise): the stalled receivers and one healthy endpoint beside them; key B: a healthy one.
  const stalled = Array.from({ length: stalledCount }, (_, i) =>
    endpoint(`wh_stalled${String(i).padStart(17, '0')}`, 'key-a', `stalled-${i}`),
  );
  const sibling = endpoint(`wh_sibling${'0'.repeat(17)}`, 'key-a', 'sibling');
  const healthy = endpoint(`wh_healthy${'0'.repeat(17)}`, 'key-b', 'healthy');
  for (const e of stalled) await add(e, false);
  await add(sibling, true);
  await add(healthy, true);

  const errors: unknown[] = [];
  dispatcher = new Dispatcher({
    store,
    endpoints: new EndpointCache(store, 0),
    sender: simulatedSender(clock, receivers),
    targets: { allowHttp: true, allowPrivate: true, resolve: async () => [] },
    clock,
    random: () => 0.5,
    wallNow: Date.now,
    isKeyActive: () => true,
    onError: (err) => errors.push(err),
  });
  dispatcher.start();

  // Busy-hour traffic: a board change every second; the healthy endpoint gets 5 line moves of
  // each, every stalled endpoint `stalledRate`.
  const sentAt = new Map<string, number>();
  let n = 0;
  const change = async () => {
    const now = clock.now();
    const events: EventRecord[] = [];
    const deliveries: NewDelivery[] = [];
    const address = (e: EndpointRecord, count: number) => {
      for (let i = 0; i < count; i++) {
        const id = `msg_${String(++n).padStart(24, '0')}`;
        events.push({
          id,
          type: 'prop.line_moved' as const,
          body: JSON.stringify({ type: 'prop.line_moved', n }),
          createdAt: now,
        });
        deliveries.push({
          endpointId: e.id,
          eventId: id,
          type: 'prop.line_moved' as const,
          createdAt: now,
          dueAt: now,
        });
        if (e === healthy) sentAt.set(id, now);
      }
    };
    address(healthy, 5);
    address(sibling, 1);
    for (const e of stalled) address(e, stalledRate);
    await store.enqueue(events, deliveries);
    dispatcher?.kick();
  };

  const healthyReceiver = receivers.get('healthy') as SimReceiver;
  const stalledReceivers = stalled.map((e) => receivers.get(e.url.slice(e.url.lastIndexOf('/') + 1)) as SimReceiver);
  const statuses: Record<string, string>[] = [];
  for (let t = 0; t < BUSY_MS; t += STEP_MS) {
    if (t % SEC === 0) await change();
    if (t === ANSWERS_FROM_MS) for (const r of stalledReceivers) r.answers = true;
    // Real time for the claims and write-backs, until the healthy endpoint has what is due (or 200 ms).
    const deadline = Date.now() + 200;
    await breathe();
    while (healthyReceiver.arrivals.length < sentAt.size && Date.now() < deadline) await breathe();
    clock.advance(STEP_MS);
    if (t % (10 * SEC) === 0) {
      const e = await store.endpoint(stalled[0]?.id as string);
      statuses.push({ t: String(t / SEC), status: e?.status ?? '?' });
    }
  }

  // Every healthy delivery came within 2 s of its event, none twice.
  const lags = healthyReceiver.arrivals.map((a) => a.at - (sentAt.get(a.id) as number));
  expect(healthyReceiver.arrivals.map((a) => a.id).sort()).toEqual([...sentAt.keys()].sort());
  expect(new Set(healthyReceiver.arrivals.map((a) => a.id)).size).toBe(healthyReceiver.arrivals.length);
  expect(Math.max(...lags)).toBeLessThanOrEqual(2 * SEC);

  // Each stalled endpoint was paused after its run of failures, and had resumed by the end.
  const pausedAts = statuses.filter((s) => s.status === 'paused').map((s) => Number(s.t));
  expect(pausedAts.length).toBeGreaterThan(0);
  expect(Math.min(...pausedAts)).toBeLessThanOrEqual((WEBHOOK_PAUSE_AFTER_FAILURES + 1) * WEBHOOK_TIMEOUT_SECONDS + 10);
  for (const e of stalled) expect((await store.endpoint(e.id))?.status).toBe('active');
  // Their key's healthy endpoint was told, at once; each stalled one, once it answered.
  const sib = receivers.get('sibling') as SimReceiver;
  const pausedNotes = sib.arrivals.filter((a) => a.type === 'webhook.paused');
  expect(pausedNotes).toHaveLength(stalledCount);
  for (const r of stalledReceivers) expect(r.arrivals.some((a) => a.type === 'webhook.paused')).toBe(true);

  // Nothing lost: with the traffic over, every delivery is sent (retries on their schedule).
  for (let minute = 0; minute < 60; minute++) {
    const pending = await db.kysely
      .selectFrom('webhook_deliveries' as never)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status' as never, '<>', 'succeeded' as never)
      .executeTakeFirstOrThrow();
    if (Number(pending.n) === 0) break;
    for (let s = 0; s < 60; s++) {
      await breathe(2);
      clock.advance(SEC);
    }
  }
  const rows = (await db.kysely
    .selectFrom('webhook_deliveries' as never)
    .select(['endpoint_id', 'event_id', 'status'] as never[])
    .execute()) as unknown as { endpoint_id: string; event_id: string; status: string }[];
  expect(rows.filter((r) => r.status !== 'succeeded')).toEqual([]);
  for (const [i, e] of stalled.entries()) {
    const ids = new Set(stalledReceivers[i]?.arrivals.map((a) => a.id));
    const stored = rows.filter((r) => r.endpoint_id === e.id).map((r) => r.event_id);
    expect(stored.length).toBeGreaterThanOrEqual((BUSY_MS / SEC) * stalledRate);
    expect(stored.filter((id) => !ids.has(id))).toEqual([]);
  }
  expect(errors).toEqual([]);
  return { lags, sib };
}

describe('a receiver that never answers cannot delay another key', () => {
  it('one stalled receiver: the healthy endpoint gets every event within 2 s for 5 busy minutes; the stalled one pauses, then resumes', async () => {
    const { sib } = await run(1, 5);
    const stored = (await (db as Db).kysely
      .selectFrom('webhook_events' as never)
      .select('body' as never)
      .where('type' as never, '=', 'webhook.paused' as never)
      .executeTakeFirstOrThrow()) as unknown as { body: string };
    const note = JSON.parse(stored.body) as WebhookEvent;
    expect(WebhookEventSchema.parse(note)).toEqual(note);
    expect(note).toMatchObject({
      type: 'webhook.paused',
      data: {
        webhookId: `wh_stalled${'0'.repeat(17)}`,
        consecutiveFailures: WEBHOOK_PAUSE_AFTER_FAILURES,
        reason: expect.stringMatching(/^10 attempts in a row failed \(since .+\), the last: no answer within 15 s$/),
      },
    });
    expect(sib.arrivals.filter((a) => a.type === 'webhook.paused')).toHaveLength(1);
  }, 120_000);

  it('twenty stalled receivers under one key: the same', async () => {
    await run(20, 2);
  }, 180_000);
});
