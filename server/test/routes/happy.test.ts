/** The five core routes, answering per spec for callers allowed to ask. */
import {
  GamesResponseSchema,
  KeyInfoSchema,
  PropsResultSchema,
  ScanResponseSchema,
  SportsResponseSchema,
} from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { buildBoard, TestBoardSource } from '../helpers/board';
import { ALL_GAMES } from '../helpers/fixtures';

const NOW = Date.parse('2026-11-22T01:00:00.000Z');
let t: TestApp;

beforeAll(async () => {
  // The board as it stood 20 minutes ago (what the free tier sees) and now.
  const past = buildBoard(
    ALL_GAMES.map((g) => ({ ...g, live: false })),
    NOW - 20 * 60_000,
  );
  const current = buildBoard(ALL_GAMES, NOW - 1_000);
  t = await buildTestApp({ source: new TestBoardSource(past, current), now: () => NOW });
});
afterAll(() => t.close());

describe('GET /api/v1/sports', () => {
  it('lists every sport, enabled per tier', async () => {
    const free = SportsResponseSchema.parse((await t.get('/api/v1/sports', t.keys.free)).json());
    expect(free.sports.filter((s) => s.enabled).map((s) => s.id)).toEqual(['nba']);
    // A locked sport names the tier that unlocks it.
    expect(Object.fromEntries(free.sports.map((s) => [s.id, s.requiredTier]))).toMatchObject({
      nba: 'free',
      mlb: 'pro',
      nfl: 'sharp',
    });
    const pro = SportsResponseSchema.parse((await t.get('/api/v1/sports', t.keys.pro)).json());
    expect(pro.sports.filter((s) => s.enabled).map((s) => s.id)).toEqual(['nba', 'wnba', 'mlb']);
    const sharp = SportsResponseSchema.parse((await t.get('/api/v1/sports', t.keys.sharp)).json());
    expect(sharp.sports.every((s) => s.enabled)).toBe(true);
    expect(sharp.sports.map((s) => s.id)).toContain('lol');
  });
});

describe('GET /api/v1/games', () => {
  it('lists games of the sport, live first, with aliases', async () => {
    const res = await t.get('/api/v1/games?sport=nba', t.keys.sharp);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const body = GamesResponseSchema.parse(res.json());
    expect(body.games.map((g) => g.id)).toEqual(['pp_1001', 'pp_1002', 'ud_1003']);
    expect(body.games[0]).toMatchObject({ live: true, source: 'prizepicks', aliases: ['ud_9001'] });
    expect(body.count).toBe(3);
    expect(body.delayed).toBe(false);
  });

  it('defaults to nba', async () => {
    const body = (await t.get('/api/v1/games', t.keys.pro)).json();
    expect(body.sport).toBe('nba');
  });

  it('lists live games to tiers without live lines too', async () => {
    const body = (await t.get('/api/v1/games', t.keys.pro)).json();
    expect(body.games[0]).toMatchObject({ id: 'pp_1001', live: true });
  });
});

describe('GET /api/v1/games/{eventId}/props', () => {
  it('answers every prop of the game with sources and fetchedAt', async () => {
    const res = await t.get('/api/v1/games/pp_1002/props', t.keys.pro);
    expect(res.statusCode).toBe(200);
    const body = PropsResultSchema.parse(res.json());
    expect(body).toMatchObject({ eventId: 'pp_1002', sport: 'nba', delayed: false, fetchedAt: NOW - 1_000 });
    expect(body.props.map((p) => `${p.player}/${p.stat}`)).toEqual([
      'LeBron James/points',
      'Nikola Jokic/points',
      'Nikola Jokic/pra',
    ]);
    expect(body.sources).toEqual(['prizepicks', 'underdog']);
    const jokic = body.props.find((p) => p.stat === 'pra');
    expect(jokic).toMatchObject({ line: 48.5, overOdds: -120, underOdds: 100, bookCount: 2 });
    const lebron = body.props.find((p) => p.player === 'LeBron James');
    expect(lebron?.overOdds).toBeUndefined();
  });

  it("accepts the other book's id for a merged game", async () => {
    const body = (await t.get('/api/v1/games/ud_9002/props', t.keys.pro)).json();
    expect(body.eventId).toBe('pp_1002');
  });

  it('filters by stats', async () => {
    const body = (await t.get('/api/v1/games/pp_1002/props?stats=pra,points', t.keys.pro)).json();
    expect(body.props).toHaveLength(3);
    const only = (await t.get('/api/v1/games/pp_1002/props?stats=pra', t.keys.pro)).json();
    expect(only.props.map((p: { stat: string }) => p.stat)).toEqual(['pra']);
  });

  it('serves live props to tiers with live lines', async () => {
    const body = PropsResultSchema.parse((await t.get('/api/v1/games/pp_1001/props', t.keys.sharp)).json());
    expect(body.props[0]).toMatchObject({ gameState: 'live', gameClock: 'Q2 5:31' });
    expect(body.props.every((p) => p.liveValue !== undefined)).toBe(true);
  });
});

describe('GET /api/v1/props', () => {
  it('flattens every prop of the sport into rows, live first', async () => {
    const body = ScanResponseSchema.parse((await t.get('/api/v1/props', t.keys.sharp)).json());
    expect(body).toMatchObject({ sport: 'nba', stat: null, count: 6, total: 6 });
    expect(body.rows[0]).toMatchObject({ eventId: 'pp_1001', gameState: 'live', source: 'prizepicks' });
    expect(body.rows.at(-1)).toMatchObject({ eventId: 'ud_1003', player: 'Stephen Curry', source: 'underdog' });
  });

  it('filters by stat and caps by limit', async () => {
    const points = (await t.get('/api/v1/props?stat=points', t.keys.sharp)).json();
    expect(points.rows.map((r: { player: string }) => r.player)).toEqual([
      'Jayson Tatum',
      'LeBron James',
      'Nikola Jokic',
    ]);
    expect(points.stat).toBe('points');
    const two = (await t.get('/api/v1/props?stat=points&limit=2', t.keys.sharp)).json();
    expect(two).toMatchObject({ count: 2, total: 3 });
    expect(two.rows).toEqual(points.rows.slice(0, 2));
  });

  it('scans other sports the tier allows', async () => {
    const body = (await t.get('/api/v1/props?sport=mlb', t.keys.pro)).json();
    expect(body.rows.map((r: { player: string }) => r.player)).toEqual(['Gerrit Cole']);
  });
});

describe('GET /api/v1/me', () => {
  it("reports the caller's key, limits and usage", async () => {
    const key = await t.createKey({ tier: 'pro', label: 'my laptop' });
    await t.get('/api/v1/sports', key);
    const body = KeyInfoSchema.parse((await t.get('/api/v1/me', key)).json());
    expect(body).toMatchObject({
      keyPrefix: key.slice(0, 8),
      tier: 'pro',
      label: 'my laptop',
      limits: {
        requestsPerMinute: 120,
        requestsPerDay: 20_000,
        realtime: true,
        sports: ['nba', 'wnba', 'mlb'],
        scanLimit: 1000,
      },
      usage: { today: 2, dailyRemaining: 19_998 },
    });
  });
});

describe('the free tier', () => {
  it('sees the board as it stood 10 minutes ago, marked delayed', async () => {
    const games = (await t.get('/api/v1/games', t.keys.free)).json();
    expect(games.delayed).toBe(true);
    expect(games.games.every((g: { live: boolean }) => !g.live)).toBe(true);
    const props = (await t.get('/api/v1/games/pp_1001/props', t.keys.free)).json();
    expect(props).toMatchObject({ delayed: true, fetchedAt: NOW - 20 * 60_000 });
    const scan = (await t.get('/api/v1/props', t.keys.free)).json();
    expect(scan.delayed).toBe(true);
    expect(scan.rows.every((r: { fetchedAt: number }) => r.fetchedAt <= NOW - 10 * 60_000)).toBe(true);
  });
});

describe('answers for repeat readers', () => {
  it('sends an ETag and answers 304 to If-None-Match', async () => {
    const first = await t.get('/api/v1/props', t.keys.sharp);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await t.get('/api/v1/props', t.keys.sharp, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('sends gzip and br when accepted, with the same JSON', async () => {
    const { gunzipSync, brotliDecompressSync } = await import('node:zlib');
    const plain = await t.get('/api/v1/props', t.keys.sharp);
    const gz = await t.get('/api/v1/props', t.keys.sharp, { 'accept-encoding': 'gzip' });
    const br = await t.get('/api/v1/props', t.keys.sharp, { 'accept-encoding': 'gzip, br' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(gz.headers.vary).toBe('Accept-Encoding');
  });
});
