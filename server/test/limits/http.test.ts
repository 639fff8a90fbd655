/** Limits through the HTTP edge: exact under concurrency, caps, usage across a restart. */
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { buildBoard, manyProps, TestBoardSource } from '../helpers/board';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});
async function app(opts: Parameters<typeof buildTestApp>[0] = {}) {
  const t = await buildTestApp(opts);
  apps.push(t);
  return t;
}

describe('per-minute limit under concurrency', () => {
  it('admits exactly 30 of 40 parallel requests on a 30/min key', async () => {
    const t = await app();
    const results = await Promise.all(Array.from({ length: 40 }, () => t.get('/api/v1/me', t.keys.free)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(30);
    expect(codes.filter((c) => c === 429)).toHaveLength(10);
    expect(await t.limiter.usedToday(await keyIdOf(t, t.keys.free))).toBe(30);
  });
});

async function keyIdOf(t: TestApp, key: string): Promise<string> {
  const rows = await t.store.listKeys();
  const row = rows.find((r) => r.keyPrefix === key.slice(0, 8));
  if (!row) throw new Error('no such key');
  return row.id;
}

describe('scan caps', () => {
  it('caps rows at the tier scanLimit whatever limit asks', async () => {
    const now = Date.now();
    const specs = [
      { id: 'pp_1', props: manyProps(1500) },
      { id: 'pp_2', props: manyProps(1500), startTime: '2026-11-22T05:00:00.000Z' },
    ];
    const source = new TestBoardSource(buildBoard(specs, now - 30 * 60_000), buildBoard(specs, now));
    const t = await app({ source });
    const free = (await t.get('/api/v1/props?limit=5000', t.keys.free)).json();
    expect(free).toMatchObject({ count: 100, total: 3000 });
    expect(free.rows).toHaveLength(100);
    const pro = (await t.get('/api/v1/props?limit=5000', t.keys.pro)).json();
    expect(pro.rows).toHaveLength(1000);
    const sharp = (await t.get('/api/v1/props?limit=5000', t.keys.sharp)).json();
    expect(sharp.rows).toHaveLength(3000);
    const small = await t.createKey({ tier: 'enterprise', scanLimit: 7 });
    expect((await t.get('/api/v1/props', small)).json().rows).toHaveLength(7);
    const few = (await t.get('/api/v1/props?limit=3', t.keys.sharp)).json();
    expect(few.rows).toEqual(sharp.rows.slice(0, 3));
  });
});

describe('usage', () => {
  it('survives a restart, and /me reports it exactly', async () => {
    const first = await buildTestApp();
    const key = first.keys.pro;
    for (let i = 0; i < 5; i++) expect((await first.get('/api/v1/sports', key)).statusCode).toBe(200);
    await first.close({ keepData: true });
    const second = await app({ dataDir: first.dataDir });
    const me = (await second.get('/api/v1/me', key)).json();
    expect(me.usage).toEqual({ today: 6, dailyRemaining: 20_000 - 6 });
  });

  it('does not count refused requests', async () => {
    const t = await app();
    const key = await t.createKey({ tier: 'enterprise', rpm: 3, rpd: 100 });
    for (let i = 0; i < 6; i++) await t.get('/api/v1/sports', key);
    expect(await t.limiter.usedToday(await keyIdOf(t, key))).toBe(3);
  });
});

describe('the delayed view', () => {
  it('never serves the free tier anything fresher than 10 minutes', async () => {
    const now = Date.now();
    const old = buildBoard([{ id: 'pp_1', props: [{ player: 'A', stat: 'points', line: 10.5 }] }], now - 11 * 60_000);
    const fresh = buildBoard([{ id: 'pp_1', props: [{ player: 'A', stat: 'points', line: 12.5 }] }], now - 9 * 60_000);
    const source = new TestBoardSource(old, fresh);
    const t = await app({ source, now: () => now });
    const free = (await t.get('/api/v1/games/pp_1/props', t.keys.free)).json();
    expect(free).toMatchObject({ delayed: true, fetchedAt: now - 11 * 60_000 });
    expect(free.props[0].line).toBe(10.5);
    const pro = (await t.get('/api/v1/games/pp_1/props', t.keys.pro)).json();
    expect(pro).toMatchObject({ delayed: false, fetchedAt: now - 9 * 60_000 });
    expect(pro.props[0].line).toBe(12.5);
  });

  it('is empty right after start-up when history does not reach back', async () => {
    const now = Date.now();
    const source = new TestBoardSource(buildBoard([{ id: 'pp_1', props: manyProps(3) }], now - 60_000));
    const t = await app({ source, now: () => now });
    expect((await t.get('/api/v1/games', t.keys.free)).json()).toMatchObject({ count: 0, delayed: true });
    expect((await t.get('/api/v1/games/pp_1/props', t.keys.free)).json().error).toBe('event_not_found');
    expect((await t.get('/api/v1/games', t.keys.pro)).json().count).toBe(1);
  });
});

describe('board changes', () => {
  it('serves the new board at once, with a new ETag', async () => {
    const source = new TestBoardSource(buildBoard([{ id: 'pp_1', props: manyProps(2) }]));
    const t = await app({ source });
    const before = await t.get('/api/v1/props', t.keys.sharp);
    source.publish(buildBoard([{ id: 'pp_1', props: manyProps(4) }]));
    const after = await t.get('/api/v1/props', t.keys.sharp, { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.json().count).toBe(4);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});
