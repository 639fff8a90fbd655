/**
 * GET /api/v1/stream over real HTTP on hand-built boards: snapshot then changes, filters and
 * tiers, exact resume across random drops, a reset when the id is older than kept, the
 * concurrency cap, revocation, a slow consumer and the free tier's delay.
 */
import type { StreamEvent } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import { buildBoard, type GameSpec, manyProps, TestBoardSource } from '../helpers/board';
import { streamApps } from './streamApp';

const T0 = Date.parse('2026-11-22T01:00:00.000Z');

function specs(step: number): GameSpec[] {
  return [
    {
      id: 'pp_1',
      aliases: ['ud_1'],
      props: [
        { player: 'Aaron Wilson', stat: 'points', line: 20.5 + (step % 3) },
        { player: 'Aaron Wilson', stat: 'rebounds', line: 7.5 },
        { player: 'Ben Cole', stat: 'points', line: 12.5 + (step % 2) },
      ],
    },
    { id: 'pp_2', sport: 'mlb', props: [{ player: 'Carl Diaz', stat: 'hits', line: 0.5 + (step % 2) }] },
    {
      id: 'pp_3',
      live: true,
      props: [{ player: 'Dan Evans', stat: 'points', line: 9.5 + step, liveValue: step }],
    },
  ];
}

const start = streamApps();

const types = (events: { data: StreamEvent }[]) => events.map((e) => e.data.type);

describe('GET /api/v1/stream', () => {
  it('sends a snapshot, then each change with ids N.k, filtered by sport, stat, player, game and tier', async () => {
    const source = new TestBoardSource(buildBoard(specs(0), T0));
    const { app, open } = await start({ source, now: () => T0 });
    const sharp = await open('/api/v1/stream?sport=nba,mlb', app.keys.sharp);
    const pro = await open('/api/v1/stream?stats=points', app.keys.pro);
    const player = await open('/api/v1/stream?player=aaron%20WILSON', app.keys.sharp);
    // One game, by its id and by the id another book gives it.
    const game = await open('/api/v1/stream?eventId=pp_1', app.keys.sharp);
    const gameByAlias = await open('/api/v1/stream?eventId=ud_1', app.keys.sharp);
    expect(sharp.status).toBe(200);
    expect(sharp.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const [snapshot] = await sharp.waitFor(1, 'snapshot');
    expect(snapshot?.id).toBe(String(source.current().version));
    if (snapshot?.data.type !== 'snapshot') throw new Error('not a snapshot');
    expect(snapshot.data.reset).toBe(false);
    expect(snapshot.data.rows.map((r) => `${r.player}/${r.stat}`).sort()).toEqual([
      'Aaron Wilson/points',
      'Aaron Wilson/rebounds',
      'Ben Cole/points',
      'Carl Diaz/hits',
      'Dan Evans/points',
    ]);
    const [proSnapshot] = await pro.waitFor(1, 'snapshot');
    // Pro: nba and mlb, no live lines; only points asked for.
    expect(proSnapshot?.data.type === 'snapshot' && proSnapshot.data.rows.map((r) => r.player)).toEqual([
      'Aaron Wilson',
      'Ben Cole',
    ]);

    const next = buildBoard(specs(1), T0 + 5_000);
    source.publish(next);
    const changes = await sharp.waitFor(4, 'prop');
    expect(changes.map((e) => e.id?.split('.')[0])).toEqual(Array(4).fill(String(next.version)));
    const aaron = changes.find((e) => e.data.type === 'prop' && e.data.row.player === 'Aaron Wilson');
    expect(aaron?.data).toMatchObject({
      type: 'prop',
      row: { stat: 'points', line: 21.5, eventId: 'pp_1' },
      previous: { line: 20.5 },
    });
    const proChanges = await pro.waitFor(2, 'prop');
    expect(proChanges.map((e) => (e.data.type === 'prop' ? e.data.row.player : ''))).toEqual([
      'Aaron Wilson',
      'Ben Cole',
    ]);
    // The ids a filtered stream gets are the full stream's ids for the same events.
    expect(proChanges.map((e) => e.id)).toEqual(
      changes
        .filter((e) => e.data.type === 'prop' && e.data.row.sport === 'nba' && !e.data.row.liveValue)
        .map((e) => e.id),
    );
    const pp1Ids = changes.filter((e) => e.data.type === 'prop' && e.data.row.eventId === 'pp_1').map((e) => e.id);
    expect(pp1Ids).toHaveLength(2);
    for (const one of [game, gameByAlias]) {
      expect((await one.waitFor(2, 'prop')).map((e) => e.id)).toEqual(pp1Ids);
    }
    const playerChanges = await player.waitFor(1, 'prop');
    expect(playerChanges.map((e) => e.data.type === 'prop' && e.data.row.player)).toEqual(['Aaron Wilson']);
  });

  it('refuses sports above the tier, unknown stats and malformed ids with the envelope', async () => {
    const source = new TestBoardSource(buildBoard(specs(0), T0));
    const { app, open } = await start({ source });
    const mlb = await open('/api/v1/stream?sport=mlb', app.keys.free);
    expect([mlb.status, JSON.parse(mlb.body)]).toEqual([
      403,
      expect.objectContaining({ error: 'sport_not_in_tier', requiredTier: 'pro' }),
    ]);
    const stat = await open('/api/v1/stream?stats=goals', app.keys.pro);
    expect([stat.status, JSON.parse(stat.body).error]).toEqual([400, 'invalid_request']);
    const id = await open('/api/v1/stream', app.keys.pro, { 'last-event-id': 'abc' });
    expect([id.status, JSON.parse(id.body).error]).toEqual([400, 'invalid_request']);
    const noKey = await open('/api/v1/stream');
    expect(noKey.status).toBe(401);
  });

  it('resumes exactly: dropped at random points, the union of what was received equals an uninterrupted stream', async () => {
    const source = new TestBoardSource(buildBoard(specs(0), T0));
    const { app, open } = await start({ source, now: () => T0 });
    const whole = await open('/api/v1/stream?sport=nba,mlb', app.keys.sharp);
    await whole.waitFor(1, 'snapshot');
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const received: { id: string | undefined; data: StreamEvent }[] = [];
    let lastId: string | undefined;
    const steps = 40;
    let dropper = await open('/api/v1/stream?sport=nba,mlb', app.keys.sharp);
    for (let step = 1; step <= steps; step++) {
      source.publish(buildBoard(specs(step), T0 + step * 1_000));
      await new Promise((r) => setTimeout(r, random() * 10));
      if (random() < 0.4) {
        dropper.close();
        await dropper.closed;
        received.push(...dropper.events);
        lastId = dropper.lastId ?? lastId;
        dropper = await open('/api/v1/stream?sport=nba,mlb', app.keys.sharp, lastId ? { 'last-event-id': lastId } : {});
      }
    }
    const finalVersion = String(source.current().version);
    await vi_waitUntil(() => whole.events.some((e) => e.id?.split('.')[0] === finalVersion));
    const changesOf = (events: typeof received) => events.filter((e) => e.data.type !== 'snapshot').map((e) => e.id);
    await vi_waitUntil(() => changesOf([...received, ...dropper.events]).length >= changesOf(whole.events).length);
    received.push(...dropper.events);
    expect(received.filter((e) => e.data.type === 'snapshot')).toHaveLength(1);
    expect(received.filter((e) => e.data.type === 'snapshot' && e.data.reset)).toHaveLength(0);
    expect(changesOf(received)).toEqual(changesOf(whole.events));
    expect(new Set(changesOf(received)).size).toBe(changesOf(received).length);
  });

  it('starts over with a snapshot marked as a reset when the id is older than the window keeps (no stored log)', async () => {
    const source = new TestBoardSource(buildBoard(specs(0), T0));
    const { app, open } = await start({ source, stream: { maxEvents: 4 }, streamLog: false });
    const first = await open('/api/v1/stream?sport=nba', app.keys.sharp);
    await first.waitFor(1, 'snapshot');
    const oldId = first.lastId as string;
    for (let step = 1; step <= 5; step++) source.publish(buildBoard(specs(step), T0 + step * 1_000));
    const resumed = await open('/api/v1/stream?sport=nba', app.keys.sharp, { 'last-event-id': oldId });
    const [snapshot] = await resumed.waitFor(1, 'snapshot');
    expect(snapshot?.data).toMatchObject({ type: 'snapshot', reset: true, boardVersion: source.current().version });
    // An id the window still holds resumes without a snapshot.
    const recent = await open('/api/v1/stream?sport=nba', app.keys.sharp, {
      'last-event-id': resumed.lastId as string,
    });
    source.publish(buildBoard(specs(6), T0 + 6_000));
    await recent.waitFor(1, 'prop');
    expect(types(recent.events)).not.toContain('snapshot');
  });

  it('caps concurrent streams per key (free 1) with 429 too_many_streams, and frees the slot on close', async () => {
    const source = new TestBoardSource(buildBoard(specs(0), T0 - 11 * 60_000));
    const { app, open } = await start({ source });
    const one = await open('/api/v1/stream', app.keys.free);
    expect(one.status).toBe(200);
    // Opening a stream counts one request.
    expect(one.headers.ratelimit).toMatch(/"minute";r=29;/);
    const two = await open('/api/v1/stream', app.keys.free);
    expect([two.status, JSON.parse(two.body).error]).toEqual([429, 'too_many_streams']);
    one.close();
    await one.closed;
    await vi_waitUntil(() => app.app.streams.size === 0);
    const three = await open('/api/v1/stream', app.keys.free);
    expect(three.status).toBe(200);
  });

  it('opens one stream with a stream token instead of the key, within its lifetime', async () => {
    let now = T0;
    const source = new TestBoardSource(buildBoard(specs(0), T0));
    const { app, open } = await start({ source, now: () => now });
    const issue = async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/stream/tokens',
        headers: { authorization: `Bearer ${app.keys.pro}` },
        payload: {},
      });
      expect(res.statusCode).toBe(201);
      return res.json() as { token: string; expiresAt: string; expiresInSeconds: number };
    };
    const { token, expiresAt, expiresInSeconds } = await issue();
    expect(token).toMatch(/^st_/);
    expect([expiresAt, expiresInSeconds]).toEqual([new Date(T0 + 300_000).toISOString(), 300]);
    const byToken = await open(`/api/v1/stream?sport=nba&token=${token}`);
    const [snapshot] = await byToken.waitFor(1, 'snapshot');
    // The key's own view: pro, so no live props.
    expect(snapshot?.data.type === 'snapshot' && snapshot.data.rows.map((r) => r.player)).toEqual([
      'Aaron Wilson',
      'Aaron Wilson',
      'Ben Cole',
    ]);
    const again = await open(`/api/v1/stream?token=${token}`);
    expect([again.status, JSON.parse(again.body).error]).toEqual([401, 'invalid_api_key']);
    const late = await issue();
    now = T0 + 301_000;
    const expired = await open(`/api/v1/stream?token=${late.token}`);
    expect(expired.status).toBe(401);
  });

  it("ends a revoked key's streams within a second", async () => {
    const source = new TestBoardSource(buildBoard(specs(0), T0));
    const { app, open } = await start({ source });
    const key = await app.createKey({ tier: 'pro' });
    const stream = await open('/api/v1/stream', key);
    await stream.waitFor(1, 'snapshot');
    const record = (await app.store.listKeys()).find((k) => key.startsWith(k.keyPrefix)) as { keyPrefix: string };
    const revokedAt = Date.now();
    await app.store.revokeKey(record.keyPrefix, revokedAt);
    const [end] = await stream.waitFor(1, 'end', 1_500);
    expect(end?.data).toMatchObject({ type: 'end', reason: 'key_revoked' });
    await stream.closed;
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });

  it('ends a slow consumer with a final event saying why once its buffer passes the cap', async () => {
    const big = (step: number): GameSpec[] => [
      { id: 'pp_9', props: manyProps(2_000).map((p) => ({ ...p, line: p.line + step })) },
    ];
    const source = new TestBoardSource(buildBoard(big(0), T0));
    const { app, open } = await start({ source, stream: { maxBufferBytes: 256 * 1024 } });
    const slow = await open('/api/v1/stream', app.keys.sharp);
    await slow.waitFor(1, 'snapshot');
    slow.pause();
    for (let step = 1; step <= 40 && app.app.streams.size > 0; step++) {
      source.publish(buildBoard(big(step), T0 + step * 1_000));
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(app.app.streams.size).toBe(0);
    slow.resume();
    const [end] = await slow.waitFor(1, 'end');
    expect(end?.data).toMatchObject({ type: 'end', reason: 'slow_consumer' });
    expect(end?.id).toBeUndefined();
  });

  it('gives the free tier the same stream 10 minutes late', async () => {
    let now = T0;
    const source = new TestBoardSource(buildBoard(specs(0), T0 - 11 * 60_000));
    const { app, open } = await start({ source, now: () => now, stream: { tickMs: 20 } });
    source.publish(buildBoard(specs(1), T0 - 5 * 60_000));
    source.publish(buildBoard(specs(2), T0 - 60_000));
    const free = await open('/api/v1/stream', app.keys.free);
    const [snapshot] = await free.waitFor(1, 'snapshot');
    expect(snapshot?.data).toMatchObject({ delayed: true, fetchedAt: new Date(T0 - 11 * 60_000).toISOString() });
    // What the delayed REST view shows at the same moment.
    const rest = (await app.get('/api/v1/props?sport=nba', app.keys.free)).json() as { rows: { line: number }[] };
    expect(snapshot?.data.type === 'snapshot' && snapshot.data.rows.map((r) => r.line)).toEqual(
      rest.rows.map((r) => r.line),
    );
    now = T0 + 5 * 60_000 + 1;
    await free.waitFor(1, 'prop');
    expect(free.events.every((e) => e.id === undefined || !e.id.startsWith(String(source.current().version)))).toBe(
      true,
    );
    now = T0 + 9 * 60_000 + 1;
    await vi_waitUntil(() => free.events.some((e) => e.id?.startsWith(`${source.current().version}.`)));
  });
});

async function vi_waitUntil(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
