/**
 * The webhook store, written once and run on SQLite and PostgreSQL: endpoints, events stored
 * once and deliveries once per event and endpoint (a production repeated stores nothing twice),
 * claims that hold a delivery while it is under way and skip inactive endpoints, attempts
 * written back in bulk, the delivery log's pages, settlement watches and pruning.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../src/store/db';
import { createWebhookStore, type WebhookStore } from '../../src/webhooks/store';
import { createTestSchema, enginesAvailable, type TestSchema } from '../shared/engines';
import { endpointRecord } from './records';

const postgres = await enginesAvailable({ postgres: true });
const T = Date.UTC(2026, 10, 22, 1);

const event = (id: string, createdAt = T) => ({
  id,
  type: 'prop.line_moved' as const,
  body: `{"id":"${id}"}`,
  createdAt,
});
const delivery = (endpointId: string, eventId: string, dueAt = T, createdAt = T) => ({
  endpointId,
  eventId,
  type: 'prop.line_moved' as const,
  createdAt,
  dueAt,
});

const engines = [
  { engine: 'sqlite', skip: false },
  { engine: 'postgres', skip: !postgres },
] as const;

const schemas: TestSchema[] = [];
afterAll(async () => {
  for (const s of schemas.splice(0)) await s.drop();
});

describe.each(engines)('the webhook store on $engine', ({ engine, skip }) => {
  const open: { db: Db; dir?: string }[] = [];
  afterEach(async () => {
    for (const { db, dir } of open.splice(0)) {
      await db.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });
  async function fresh(): Promise<WebhookStore> {
    if (engine === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'propsfeed-webhooks-'));
      const db = await openDb({ dataDir: dir });
      open.push({ db, dir });
      return createWebhookStore(db);
    }
    const schema = await createTestSchema('webhooks');
    schemas.push(schema);
    const db = await openDb({ databaseUrl: schema.url, dataDir: '' });
    open.push({ db });
    return createWebhookStore(db);
  }

  it.skipIf(skip)('keeps endpoints with their fields, changes and deletes them', async () => {
    const store = await fresh();
    const a = endpointRecord({ filters: { sports: ['nba'], players: ['Nikola Jokić'] }, minEdge: 0.03, entry: 'x' });
    const b = endpointRecord({ keyId: 'key-2', createdAt: T + 1, updatedAt: T + 1 });
    await store.insertEndpoint(a);
    await store.insertEndpoint(b);
    expect(await store.endpoint(a.id)).toEqual(a);
    expect((await store.endpointsOf('key-1')).map((e) => e.id)).toEqual([a.id]);
    expect((await store.allEndpoints()).map((e) => e.id)).toEqual([a.id, b.id]);
    const before = await store.endpointsVersion();
    await store.updateEndpoint(a.id, {
      status: 'paused',
      previousSecret: 'whsec_b2xk',
      previousSecretUntil: T + 5,
      updatedAt: T + 9,
    });
    expect(await store.endpointsVersion()).not.toBe(before);
    expect(await store.endpoint(a.id)).toMatchObject({
      status: 'paused',
      previousSecret: 'whsec_b2xk',
      previousSecretUntil: T + 5,
    });
    await store.enqueue([event('msg_1')], [delivery(a.id, 'msg_1')]);
    expect(await store.deleteEndpoint(a.id)).toBe(true);
    expect(await store.deleteEndpoint(a.id)).toBe(false);
    expect(await store.delivery(a.id, 'msg_1')).toBeUndefined();
  });

  it.skipIf(skip)('stores an event and a delivery once however often they are enqueued, with the cursor', async () => {
    const store = await fresh();
    const a = endpointRecord();
    await store.insertEndpoint(a);
    expect(await store.cursor('board')).toBeUndefined();
    await store.enqueue([event('msg_1')], [delivery(a.id, 'msg_1')], { name: 'board', version: 7, at: T });
    await store.enqueue([event('msg_1')], [delivery(a.id, 'msg_1')], { name: 'board', version: 8, at: T });
    expect(await store.cursor('board')).toBe(8);
    const page = await store.deliveries(a.id, { limit: 10 });
    expect(page).toHaveLength(1);
    expect(page[0]).toMatchObject({ eventId: 'msg_1', status: 'pending', attempts: 0, nextAttemptAt: T });
  });

  it.skipIf(skip)(
    'claims what is due for active endpoints, holds it, and takes it again only once the hold is over',
    async () => {
      const store = await fresh();
      const a = endpointRecord();
      const paused = endpointRecord({ status: 'paused' });
      await store.insertEndpoint(a);
      await store.insertEndpoint(paused);
      await store.enqueue(
        [event('msg_1'), event('msg_2'), event('msg_3')],
        [
          delivery(a.id, 'msg_1', T),
          delivery(a.id, 'msg_2', T + 1_000),
          delivery(paused.id, 'msg_1', T),
          delivery(a.id, 'msg_3', T + 60_000),
        ],
      );
      expect(await store.nextDueAt()).toBe(T);
      const first = await store.claimDue(T + 1_000, T + 30_000, 10);
      expect(first.map((d) => d.eventId).sort()).toEqual(['msg_1', 'msg_2']);
      expect(first[0]).toMatchObject({ endpointId: a.id, attempts: 0, body: expect.stringContaining('"id":"msg_') });
      expect(await store.claimDue(T + 2_000, T + 30_000, 10)).toEqual([]);
      expect((await store.claimDue(T + 30_000, T + 60_000, 1)).length).toBe(1);
      expect(await store.claimOne(a.id, 'msg_404', T)).toBeUndefined();
    },
  );

  it.skipIf(skip)(
    "claims fairly: each endpoint's oldest first up to its share, the endpoints taking turns, however long one's backlog",
    async () => {
      const store = await fresh();
      const stalled = endpointRecord({ id: `wh_${'s'.repeat(24)}` });
      const healthy = endpointRecord({ id: `wh_${'h'.repeat(24)}`, keyId: 'key-2' });
      const third = endpointRecord({ id: `wh_${'t'.repeat(24)}`, keyId: 'key-3' });
      for (const e of [stalled, healthy, third]) await store.insertEndpoint(e);
      // The stalled endpoint's 600 deliveries are all older than the others'.
      const backlog = Array.from({ length: 600 }, (_, i) => `msg_s${String(i).padStart(4, '0')}`);
      await store.enqueue(
        [...backlog.map((id) => event(id)), event('msg_h1'), event('msg_h2'), event('msg_t1')],
        [
          ...backlog.map((id, i) => delivery(stalled.id, id, T + i)),
          delivery(healthy.id, 'msg_h1', T + 700),
          delivery(healthy.id, 'msg_h2', T + 701),
          delivery(third.id, 'msg_t1', T + 702),
        ],
      );
      const now = T + 1_000;
      // Oldest-first would take 512 of the stalled endpoint's; shares take 4 at most from each.
      const claimed = await store.claimDue(now, now + 30_000, 512, undefined, { perEndpoint: 4 });
      expect(claimed.map((d) => d.eventId)).toEqual([
        'msg_s0000',
        'msg_h1',
        'msg_t1',
        'msg_s0001',
        'msg_h2',
        'msg_s0002',
        'msg_s0003',
      ]);
      // A room per endpoint named (none from the stalled one this time), and the limit takes turns.
      await store.enqueue(
        [event('msg_h3'), event('msg_t2')],
        [delivery(healthy.id, 'msg_h3', T + 800), delivery(third.id, 'msg_t2', T + 801)],
      );
      const next = await store.claimDue(now, now + 30_000, 2, undefined, {
        perEndpoint: 4,
        rooms: new Map([
          [stalled.id, 0],
          [healthy.id, 4],
          [third.id, 4],
        ]),
      });
      expect(next.map((d) => d.eventId)).toEqual(['msg_h3', 'msg_t2']);
      // A paused endpoint's probe: its oldest pending delivery, due or not.
      const probe = await store.claimOldest(stalled.id, now + 60_000);
      expect(probe?.eventId).toBe('msg_s0004');
      expect(await store.claimOldest(`wh_${'n'.repeat(24)}`, now)).toBeUndefined();
      // The circuit breaker's fields are kept.
      await store.updateEndpoint(stalled.id, {
        status: 'paused',
        consecutiveFailures: 10,
        pausedReason: '10 failed attempts in a row',
        pausedAt: now,
        probeAt: now + 30_000,
      });
      expect(await store.endpoint(stalled.id)).toMatchObject({
        consecutiveFailures: 10,
        pausedReason: '10 failed attempts in a row',
        pausedAt: now,
        probeAt: now + 30_000,
      });
      // Paused, it gives nothing, its holds over or not; the others' expired holds are taken again.
      const later = await store.claimDue(now + 100_000, now + 130_000, 512, undefined, { perEndpoint: 4 });
      expect(later.filter((d) => d.endpointId === stalled.id)).toEqual([]);
      expect(later.map((d) => d.eventId).sort()).toEqual(['msg_h1', 'msg_h2', 'msg_h3', 'msg_t1', 'msg_t2']);
    },
  );

  it.skipIf(skip)(
    'writes attempts back in bulk, keeping the last attempt when a claim is given back unattempted',
    async () => {
      const store = await fresh();
      const a = endpointRecord();
      await store.insertEndpoint(a);
      await store.enqueue([event('msg_1'), event('msg_2')], [delivery(a.id, 'msg_1'), delivery(a.id, 'msg_2')]);
      await store.claimDue(T, T + 30_000, 10);
      await store.recordAttempts([
        {
          endpointId: a.id,
          eventId: 'msg_1',
          status: 'pending',
          attempts: 1,
          nextAttemptAt: T + 5_000,
          lastAttemptAt: T,
          responseStatus: 500,
          latencyMs: 12,
          error: "answered 500: it's down",
        },
        {
          endpointId: a.id,
          eventId: 'msg_2',
          status: 'succeeded',
          attempts: 1,
          nextAttemptAt: null,
          lastAttemptAt: T,
          responseStatus: 200,
          latencyMs: 3,
          error: null,
        },
      ]);
      await store.recordAttempts([
        {
          endpointId: a.id,
          eventId: 'msg_1',
          status: 'pending',
          attempts: 1,
          nextAttemptAt: T + 6_000,
          lastAttemptAt: null,
          responseStatus: null,
          latencyMs: null,
          error: null,
        },
      ]);
      expect(await store.delivery(a.id, 'msg_1')).toMatchObject({
        status: 'pending',
        attempts: 1,
        nextAttemptAt: T + 6_000,
        lastAttemptAt: T,
        responseStatus: 500,
        latencyMs: 12,
        error: "answered 500: it's down",
      });
      expect(await store.delivery(a.id, 'msg_2')).toMatchObject({
        status: 'succeeded',
        responseStatus: 200,
        latencyMs: 3,
      });
      expect(await store.failPending(a.id, 'disabled', T + 1)).toBe(1);
      expect(await store.delivery(a.id, 'msg_1')).toMatchObject({
        status: 'failed',
        error: 'disabled',
        nextAttemptAt: null,
      });
    },
  );

  it.skipIf(skip)(
    'pages the delivery log newest first, by status, and prunes old finished deliveries and their events',
    async () => {
      const store = await fresh();
      const a = endpointRecord();
      await store.insertEndpoint(a);
      const ids = Array.from({ length: 5 }, (_, i) => `msg_${i}`);
      await store.enqueue(
        ids.map((id, i) => event(id, T + i)),
        ids.map((id, i) => delivery(a.id, id, T, T + i)),
      );
      const first = await store.deliveries(a.id, { limit: 2 });
      expect(first.map((d) => d.eventId)).toEqual(['msg_4', 'msg_3']);
      const last = first.at(-1);
      const next = await store.deliveries(a.id, {
        limit: 2,
        before: { createdAt: last?.createdAt ?? 0, eventId: last?.eventId ?? '' },
      });
      expect(next.map((d) => d.eventId)).toEqual(['msg_2', 'msg_1']);
      await store.recordAttempts([
        {
          endpointId: a.id,
          eventId: 'msg_0',
          status: 'succeeded',
          attempts: 1,
          nextAttemptAt: null,
          lastAttemptAt: T,
          responseStatus: 200,
          latencyMs: 1,
          error: null,
        },
      ]);
      expect((await store.deliveries(a.id, { limit: 9, status: 'succeeded' })).map((d) => d.eventId)).toEqual([
        'msg_0',
      ]);
      expect(await store.prune(T + 3)).toBe(1);
      expect((await store.deliveries(a.id, { limit: 9 })).map((d) => d.eventId)).toEqual([
        'msg_4',
        'msg_3',
        'msg_2',
        'msg_1',
      ]);
    },
  );

  it.skipIf(skip)('keeps games waiting to settle until dropped', async () => {
    const store = await fresh();
    await store.watchSettlements([{ gameId: 'pp_1', sport: 'nba', date: '2026-11-22', finalAt: T }]);
    await store.watchSettlements([{ gameId: 'pp_1', sport: 'nba', date: '2026-11-22', finalAt: T + 1 }]);
    expect(await store.settlementWatches()).toEqual([{ gameId: 'pp_1', sport: 'nba', date: '2026-11-22', finalAt: T }]);
    await store.dropSettlementWatch('pp_1');
    expect(await store.settlementWatches()).toEqual([]);
  });
});
