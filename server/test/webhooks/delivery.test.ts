/**
 * Delivery as the Standard Webhooks spec says, on a webhook clock the test moves by hand (a
 * retry schedule of hours runs in milliseconds): retries with the same webhook-id on the
 * schedule until a 2xx, Retry-After honoured, 410 disabling the endpoint, an endpoint failing
 * for 5 days disabled with the reason on it, the address re-checked at each attempt (a name
 * that now resolves to a private address is not sent to), and the per-minute cap's summary.
 * The receiver verifies every delivery with the `standardwebhooks` package.
 */
import { WebhookEventSchema } from '@propsfeed/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameSpec } from '../helpers/board';
import { type ManualClock, manualClock } from './clock';
import { until, type WebhookTest, webhookTest } from './setup';

const T0 = Date.UTC(2026, 10, 22, 1, 0, 0);
const SEC = 1_000;
const MIN = 60 * SEC;

const board = (step: number, props = 1): GameSpec[] => [
  {
    id: 'pp_1',
    props: Array.from({ length: props }, (_, i) => ({
      player: `Player ${String(i).padStart(4, '0')}`,
      stat: 'points',
      line: 20.5 + step,
    })),
  },
];

let w: WebhookTest | undefined;
let clock: ManualClock;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function setUp(props = 1): Promise<WebhookTest> {
  clock = manualClock(T0);
  // random 0.5: no jitter, so the schedule can be checked to the millisecond.
  w = await webhookTest({ webhooks: { clock, random: () => 0.5 }, specs: board(0, props) });
  return w;
}

async function deliveryOf(t: WebhookTest, id: string, key = t.t.keys.sharp) {
  const res = await t.call('GET', `/api/v1/webhooks/${id}/deliveries`, key);
  if (res.statusCode !== 200) throw new Error(`deliveries answered ${res.statusCode}: ${res.body}`);
  return res.json().deliveries[0] as
    | {
        id: string;
        status: string;
        attempts: number;
        nextAttemptAt: string | null;
        responseStatus: number | null;
        error: string | null;
      }
    | undefined;
}

/** Waits for the delivery's attempt `n` to be recorded. */
async function attempted(t: WebhookTest, id: string, n: number, key = t.t.keys.sharp) {
  await until(async () => ((await deliveryOf(t, id, key))?.attempts ?? 0) >= n);
  return (await deliveryOf(t, id, key)) as NonNullable<Awaited<ReturnType<typeof deliveryOf>>>;
}

describe('retries', () => {
  it('answered 500 three times then 200: the 4th attempt delivers it, same webhook-id, on the schedule', async () => {
    const t = await setUp();
    const { id } = await t.register(t.t.keys.sharp, { events: ['prop.line_moved'] });
    t.receiver.answer = (n) => (n < 3 ? 500 : 200);
    t.publish(board(1));
    await t.receiver.waitFor((r) => r.length === 1);
    const arrivals: number[] = [clock.now()];
    // Each wait of the schedule after a failure: 5 s, 5 min, 30 min.
    for (const [n, wait] of [
      [1, 5 * SEC],
      [2, 5 * MIN],
      [3, 30 * MIN],
    ] as const) {
      const d = await attempted(t, id, n);
      expect(d).toMatchObject({ status: 'pending', responseStatus: 500, error: 'answered 500: refused (500)' });
      expect(Date.parse(d.nextAttemptAt as string) - clock.now()).toBe(wait);
      // Not a moment early…
      clock.advance(wait - SEC);
      await new Promise((r) => setTimeout(r, 100));
      expect(t.receiver.received).toHaveLength(n);
      // …and then it comes.
      clock.advance(SEC);
      await t.receiver.waitFor((r) => r.length === n + 1);
      arrivals.push(clock.now());
    }
    expect(arrivals.map((a) => a - T0)).toEqual([0, 5 * SEC, 5 * SEC + 5 * MIN, 5 * SEC + 35 * MIN]);
    const ids = t.receiver.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(1);
    expect(t.receiver.received.map((r) => r.answered)).toEqual([500, 500, 500, 200]);
    expect(t.receiver.received.every((r) => r.event?.type === 'prop.line_moved')).toBe(true);
    expect(t.receiver.events()).toHaveLength(1);
    const done = await attempted(t, id, 4);
    expect(done).toMatchObject({
      id: ids[0],
      status: 'succeeded',
      attempts: 4,
      responseStatus: 200,
      error: null,
      nextAttemptAt: null,
    });
  });

  it('never retries before the answer’s Retry-After', async () => {
    const t = await setUp();
    const { id } = await t.register(t.t.keys.sharp, { events: ['prop.line_moved'] });
    t.receiver.answer = (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '120' } } : 200);
    t.publish(board(1));
    const d = await attempted(t, id, 1);
    expect(Date.parse(d.nextAttemptAt as string) - clock.now()).toBe(120 * SEC);
    clock.advance(120 * SEC);
    await t.receiver.waitFor((r) => r.length === 2);
    expect((await attempted(t, id, 2)).status).toBe('succeeded');
  });

  it('a manual retry sends a delivered message again with the same id', async () => {
    const t = await setUp();
    const { id } = await t.register(t.t.keys.sharp, { events: ['prop.line_moved'] });
    t.publish(board(1));
    const d = await attempted(t, id, 1);
    const res = await t.call('POST', `/api/v1/webhooks/${id}/deliveries/${d.id}/retry`, t.t.keys.sharp, {});
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ id: d.id, status: 'pending' });
    await t.receiver.waitFor((r) => r.length === 2);
    expect(t.receiver.received.map((r) => r.id)).toEqual([d.id, d.id]);
  });
});

describe('refusals', () => {
  it('410 Gone fails the delivery and disables the endpoint, with the reason on it; nothing more is sent', async () => {
    const t = await setUp();
    const { id } = await t.register(t.t.keys.sharp, { events: ['prop.line_moved'] });
    t.receiver.answer = () => 410;
    t.publish(board(1));
    const d = await attempted(t, id, 1);
    expect(d).toMatchObject({
      status: 'failed',
      responseStatus: 410,
      error: 'answered 410 Gone: the endpoint is disabled',
    });
    const endpoint = (await t.call('GET', `/api/v1/webhooks/${id}`, t.t.keys.sharp)).json();
    expect(endpoint).toMatchObject({ status: 'disabled', disabledReason: 'the receiver answered 410 Gone' });
    t.publish(board(2));
    await t.t.webhooks?.produced();
    clock.advance(60 * MIN);
    await new Promise((r) => setTimeout(r, 200));
    expect(t.receiver.received).toHaveLength(1);
    // Re-enabled by its owner, it receives again.
    t.receiver.answer = () => 200;
    await t.call('PATCH', `/api/v1/webhooks/${id}`, t.t.keys.sharp, { status: 'active' });
    t.publish(board(3));
    await t.receiver.waitFor((r) => r.length === 2);
  });

  it('disables an endpoint whose every delivery failed for 5 days, saying so', async () => {
    const t = await setUp();
    const { id } = await t.register(t.t.keys.sharp, { events: ['prop.line_moved'] });
    t.receiver.answer = () => 503;
    t.publish(board(1));
    await attempted(t, id, 1);
    expect((await t.call('GET', `/api/v1/webhooks/${id}`, t.t.keys.sharp)).json().failingSince).toBe(
      new Date(T0).toISOString(),
    );
    // Two days on, still failing: still active.
    clock.advance(2 * 86_400_000);
    await until(async () => ((await deliveryOf(t, id))?.attempts ?? 0) >= 2);
    expect((await t.call('GET', `/api/v1/webhooks/${id}`, t.t.keys.sharp)).json().status).toBe('active');
    // Five days after the first failure, the next failure disables it.
    clock.advance(3 * 86_400_000);
    t.publish(board(2));
    await until(
      async () => (await t.call('GET', `/api/v1/webhooks/${id}`, t.t.keys.sharp)).json().status === 'disabled',
    );
    const endpoint = (await t.call('GET', `/api/v1/webhooks/${id}`, t.t.keys.sharp)).json();
    expect(endpoint.disabledReason).toBe('every delivery failed for 5 days (since 2026-11-22T01:00:00.000Z)');
  });

  it('pauses an endpoint after its run of failures, saying why and since when, and resumes it when it answers again', async () => {
    const t = await setUp(10);
    const { id } = await t.register(t.t.keys.sharp, { events: ['prop.line_moved'] });
    t.receiver.answer = () => 503;
    t.publish(board(1, 10));
    // Ten failures at once: not yet a minute of them, so still active.
    await until(
      async () => (await t.call('GET', `/api/v1/webhooks/${id}`, t.t.keys.sharp)).json().failingSince !== null,
    );
    await t.receiver.waitFor((r) => r.length === 10);
    expect((await t.call('GET', `/api/v1/webhooks/${id}`, t.t.keys.sharp)).json().status).toBe('active');
    // A minute on, the retries fail too: paused.
    clock.advance(61 * SEC);
    await until(async () => (await t.call('GET', `/api/v1/webhooks/${id}`, t.t.keys.sharp)).json().status === 'paused');
    const paused = (await t.call('GET', `/api/v1/webhooks/${id}`, t.t.keys.sharp)).json();
    expect(paused).toMatchObject({
      status: 'paused',
      pausedAt: new Date(T0 + 61 * SEC).toISOString(),
      nextProbeAt: new Date(T0 + 91 * SEC).toISOString(),
    });
    expect(paused.pausedReason).toMatch(
      /^1\d attempts in a row failed \(since 2026-11-22T01:00:00.000Z\), the last: answered 503: refused \(503\)$/,
    );
    const before = t.receiver.received.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(t.receiver.received.length).toBe(before);
    // It answers again: the probe (its oldest pending delivery), 30 s after the pause, resumes it.
    t.receiver.answer = () => 200;
    clock.advance(30 * SEC);
    await until(async () => (await t.call('GET', `/api/v1/webhooks/${id}`, t.t.keys.sharp)).json().status === 'active');
    expect((await t.call('GET', `/api/v1/webhooks/${id}`, t.t.keys.sharp)).json()).toMatchObject({
      pausedReason: null,
      nextProbeAt: null,
      failingSince: null,
    });
    // The line moves' next attempts are due on their schedule (5 min after their second failure).
    clock.advance(5 * MIN);
    await t.receiver.waitFor((r) => new Set(r.filter((x) => x.answered === 200).map((x) => x.id)).size === 11);
    const events = t.receiver.events();
    expect(events.filter((e) => e.type === 'prop.line_moved')).toHaveLength(10);
    expect(events.find((e) => e.type === 'webhook.paused')).toMatchObject({ data: { webhookId: id } });
  });

  it('re-checks the address at each attempt: a name now resolving to a private address is not sent to', async () => {
    const t = await setUp();
    const url = `http://hooks.test:${t.receiver.port}/hooks`;
    const { id } = await t.register(t.t.keys.sharp, { url, events: ['prop.line_moved'] });
    t.publish(board(1));
    await attempted(t, id, 1);
    expect(t.receiver.received).toHaveLength(1);
    t.names['hooks.test'] = '10.0.0.9';
    t.publish(board(2));
    await until(
      async () =>
        ((await t.call('GET', `/api/v1/webhooks/${id}/deliveries`, t.t.keys.sharp)).json().count as number) === 2,
    );
    // The clock stands still, so both deliveries have one timestamp and the log's order between
    // them is the event ids': find the refused one rather than take the first.
    const refused = async () => {
      const log = (await t.call('GET', `/api/v1/webhooks/${id}/deliveries`, t.t.keys.sharp)).json();
      return (log.deliveries as { attempts: number; error: string | null; responseStatus: number | null }[]).find(
        (d) => d.error !== null,
      );
    };
    await until(async () => (await refused()) !== undefined);
    const latest = await refused();
    expect(latest).toMatchObject({
      attempts: 1,
      responseStatus: null,
      error:
        "not sent: the url's host is a private network address (allowed only with PROPS_WEBHOOK_ALLOW_PRIVATE) (hooks.test resolves to 10.0.0.9)",
    });
    expect(t.receiver.received).toHaveLength(1);
  });
});

describe('keys', () => {
  it("sends nothing more for a revoked key's endpoints: what was waiting fails, saying why", async () => {
    const t = await setUp();
    const key = await t.t.createKey({ tier: 'sharp' });
    const { id } = await t.register(key, { events: ['prop.line_moved'] });
    t.receiver.answer = () => 500;
    t.publish(board(1));
    await attempted(t, id, 1, key);
    await t.t.store.revokeKey(key.slice(0, 8), Date.now());
    await t.t.keysCache.refresh();
    clock.advance(5 * SEC);
    await until(
      async () => (await t.t.webhooks?.store.delivery(id, t.receiver.received[0]?.id ?? ''))?.status === 'failed',
    );
    expect((await t.t.webhooks?.store.delivery(id, t.receiver.received[0]?.id ?? ''))?.error).toBe(
      'not sent: the API key that registered the endpoint was revoked',
    );
    t.publish(board(2));
    await t.t.webhooks?.produced();
    await new Promise((r) => setTimeout(r, 200));
    expect(t.receiver.received).toHaveLength(1);
  });
});

describe('caps', () => {
  it("past an endpoint's events per minute, the rest are counted and summed up in one webhook.capped event", async () => {
    const t = await setUp(650);
    const { id } = await t.register(t.t.keys.pro, { events: ['prop.line_moved'] });
    t.publish(board(1, 650));
    await t.receiver.waitFor((r) => r.length === 600, 20_000);
    await t.t.webhooks?.produced();
    await new Promise((r) => setTimeout(r, 200));
    expect(t.receiver.received).toHaveLength(600);
    // The minute ends: the summary follows.
    clock.advance(MIN);
    await t.receiver.waitFor((r) => r.some((x) => x.event?.type === 'webhook.capped'), 10_000);
    const capped = t.receiver.received.find((x) => x.event?.type === 'webhook.capped')?.event;
    expect(capped).toMatchObject({
      type: 'webhook.capped',
      data: {
        webhookId: id,
        limitPerMinute: 600,
        dropped: 50,
        droppedByType: { 'prop.line_moved': 50 },
        from: new Date(T0).toISOString(),
        to: new Date(T0 + MIN).toISOString(),
        message: "50 events were not sent: more than 600 in one minute, this endpoint's cap",
      },
    });
    expect(t.receiver.events().filter((e) => e.type === 'prop.line_moved')).toHaveLength(600);
    expect(WebhookEventSchema.parse(capped)).toEqual(capped);
  }, 60_000);
});
