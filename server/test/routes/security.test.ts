/** Auth, tiers and limits, checked once per keyed route; keys never leak. */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardSource } from '../../src/board/types';
import { buildTestApp, type TestApp } from '../helpers/app';
import { buildBoard, TestBoardSource } from '../helpers/board';
import { ALL_GAMES } from '../helpers/fixtures';
import { KEYED_ROUTES, type KeyedRoute, routeRequest } from './keyed.common';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    source: new TestBoardSource(buildBoard(ALL_GAMES, Date.now() - 20 * 60_000), buildBoard(ALL_GAMES)),
  });
});
afterAll(() => t.close());

function expectLimitHeaders(headers: Record<string, unknown>) {
  expect(headers['ratelimit-policy']).toMatch(/^"minute";q=\d+;w=60, "day";q=\d+;w=86400$/);
  expect(headers.ratelimit).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(String(headers[h])).toMatch(/^\d+$/);
  }
}

/** The route's test request with this key (none: no Authorization header). */
const call = (route: KeyedRoute, key?: string) =>
  t.inject(routeRequest(route, key === undefined ? undefined : `Bearer ${key}`));

describe.each(KEYED_ROUTES)('$name ($url)', (route) => {
  it('answers 401 missing_api_key without a key, challenging for a bearer key (RFC 6750)', async () => {
    const res = await call(route);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'missing_api_key', message: expect.any(String) });
    expect(res.headers['www-authenticate']).toBe(`Bearer realm="propsfeed", error_description="${res.json().message}"`);
  });

  it.each(['Bearer', 'bearer   '])('answers 401 missing_api_key for the scheme without a key (%j)', async (header) => {
    const res = await t.inject(routeRequest(route, header));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'missing_api_key', message: expect.any(String) });
  });

  it.each([
    ['another scheme', (k: string) => `Basic ${k}`],
    ['a malformed key', () => 'Bearer pf_short'],
    ['an unknown key', () => `Bearer pf_${'A'.repeat(32)}`],
    ['the key without a scheme', (k: string) => k],
  ])('answers 401 invalid_api_key for %s', async (_what, header) => {
    const res = await t.inject(routeRequest(route, header(t.keys.sharp)));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'invalid_api_key', message: expect.any(String) });
    expect(res.headers['www-authenticate']).toMatch(
      /^Bearer realm="propsfeed", error="invalid_token", error_description="/,
    );
  });

  it('answers 401 for a revoked key', async () => {
    const key = await t.createKey({ tier: 'sharp' });
    expect((await call(route, key)).statusCode).not.toBe(401);
    await t.store.revokeKey(key.slice(0, 8), Date.now());
    await t.keysCache.refresh();
    const res = await call(route, key);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_api_key');
  });

  it('carries the limit headers on a keyed answer', async () => {
    const res = await call(route, t.keys.sharp);
    expect([401, 403, 429, 500]).not.toContain(res.statusCode);
    expectLimitHeaders(res.headers);
  });

  it('answers 429 rate_limited past the per-minute limit, with Retry-After', async () => {
    const key = await t.createKey({ tier: 'enterprise', rpm: 2, rpd: 100 });
    await call(route, key);
    const second = await call(route, key);
    expect(second.headers['x-ratelimit-remaining']).toBe('0');
    const res = await call(route, key);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ error: 'rate_limited', message: expect.any(String) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expectLimitHeaders(res.headers);
  });

  it('answers 429 daily_quota_exceeded past the day quota', async () => {
    const key = await t.createKey({ tier: 'enterprise', rpm: 100, rpd: 1 });
    await call(route, key);
    const res = await call(route, key);
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe('daily_quota_exceeded');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  if (route.tier === 'pro') {
    it('answers 403 route_not_in_tier to the free tier, naming pro', async () => {
      const res = await call(route, t.keys.free);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'route_not_in_tier', message: expect.any(String), requiredTier: 'pro' });
      expectLimitHeaders(res.headers);
    });
  }
});

describe('tiers', () => {
  it('refuses a sport outside the tier with 403 sport_not_in_tier and the tier that allows it', async () => {
    const mlb = await t.get('/api/v1/games?sport=mlb', t.keys.free);
    expect(mlb.statusCode).toBe(403);
    expect(mlb.json()).toMatchObject({ error: 'sport_not_in_tier', requiredTier: 'pro' });
    const nfl = await t.get('/api/v1/props?sport=nfl', t.keys.pro);
    expect(nfl.json()).toMatchObject({ error: 'sport_not_in_tier', requiredTier: 'sharp' });
    const nflGame = await t.get('/api/v1/games/pp_3001/props', t.keys.pro);
    expect(nflGame.json()).toMatchObject({ error: 'sport_not_in_tier', requiredTier: 'sharp' });
  });

  it("refuses a live game's props to tiers without live lines, and leaves live rows out of their scans", async () => {
    const res = await t.get('/api/v1/games/pp_1001/props', t.keys.pro);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'live_not_in_tier', requiredTier: 'sharp' });
    const scan = (await t.get('/api/v1/props', t.keys.pro)).json();
    expect(scan.rows.some((r: { eventId: string }) => r.eventId === 'pp_1001')).toBe(false);
    const sharp = (await t.get('/api/v1/props', t.keys.sharp)).json();
    expect(sharp.rows[0].eventId).toBe('pp_1001');
  });
});

/** A log stream that keeps its lines. */
function logSink(): { lines: string[]; sink: Writable } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, sink };
}

describe('keys in logs', () => {
  it('never writes the key to the log', async () => {
    const { lines, sink } = logSink();
    const { createApp } = await import('../../src/app');
    const app = await createApp(t.runtime, { logLevel: 'trace', logStream: sink });
    await app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${t.keys.pro}` } });
    await app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${t.keys.pro}x` } });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/api/v1/me');
    expect(log).not.toContain(t.keys.pro.slice(3));
  });

  it("logs a request's failure with its request id, and nothing for requests that succeed", async () => {
    const { lines, sink } = logSink();
    const failing: BoardSource = Object.create(t.source);
    failing.current = () => {
      throw new Error('board exploded');
    };
    const { createApp } = await import('../../src/app');
    const { assembleRuntime } = await import('../../src/runtime');
    const runtime = assembleRuntime({ store: t.store, limiter: t.limiter, keys: t.keysCache, feed: failing });
    const app = await createApp(runtime, { logStream: sink });
    const auth = { authorization: `Bearer ${t.keys.pro}` };
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers: auth })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    const res = await app.inject({ method: 'GET', url: '/api/v1/games', headers: auth });
    await app.close();
    await runtime.close();
    expect(res.json()).toEqual({ error: 'internal_error', message: 'internal error; it has been logged' });
    const logged = lines.map((line) => JSON.parse(line));
    expect(logged).toEqual([expect.objectContaining({ msg: 'request failed', reqId: res.headers['x-request-id'] })]);
    expect(logged[0].err.message).toBe('board exploded');
    expect(lines.join('')).not.toContain(t.keys.pro.slice(3));
  });
});
