/**
 * The holds of #32 that need no flood of real connections, in process: sign-ups stay fair
 * under a flood from many networks, admin-token guessing stops at a ceiling for everyone
 * while the right token works, slips cannot contradict themselves, and the small things (echoed
 * values, empty player filters, lone surrogates, missing bodies, stream tokens and opens, encoded
 * paths). The floods over real sockets are in abuse.test.ts.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT, JOKIC_POINTS, PAST } from '../board-routes/fixtures';
import { type BoardRoutesApp, buildBoardRoutesApp, logsOf } from '../board-routes/setup';
import { buildTestApp, type TestApp } from '../helpers/app';
import { buildBoard, TestBoardSource } from '../helpers/board';
import { streamApps } from '../stream/streamApp';

const ADMIN_TOKEN = 'admin-token-0123456789';
const NOON = Date.parse('2026-11-22T12:00:00Z');

describe('a sign-up flood from 100 /24s', () => {
  it('leaves a fresh /24 its key', async () => {
    const t = await buildTestApp({ now: () => NOON });
    const signUp = (remoteAddress: string) =>
      t.inject({ method: 'POST', url: '/api/v1/keys', payload: { email: 'fan@example.com' }, remoteAddress });
    try {
      const statuses: Record<number, number> = {};
      // Five tries from each of 100 /24s, from a different address each time.
      for (let round = 0; round < 5; round++) {
        for (let net = 0; net < 100; net++) {
          const res = await signUp(`10.50.${net}.${round + 1}`);
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        }
      }
      // Each /24's first key of the day, then the shared 60 a minute, then nothing.
      expect(statuses).toEqual({ 201: 160, 429: 340 });
      const refused = await signUp('10.50.0.9');
      expect(refused.json().message).toMatch(
        /^too many new free keys from your network|^your network has had its first key/,
      );
      const fresh = await signUp('10.51.7.1');
      expect(fresh.statusCode, fresh.body).toBe(201);
      expect(fresh.json().tier).toBe('free');
    } finally {
      await t.close();
    }
  });
});

describe('admin-token guessing from 30 addresses', () => {
  it('is stopped at the ceiling for everyone together, while the right token still works', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await buildTestApp({ adminToken: ADMIN_TOKEN, logStream, now: () => NOON });
    const attempt = (token: string, remoteAddress: string) =>
      t.inject({ method: 'GET', url: '/admin/v1/keys', headers: { authorization: `Bearer ${token}` }, remoteAddress });
    try {
      const statuses: Record<number, number> = {};
      let refusal: { body: unknown; retryAfter: unknown } | undefined;
      for (let guess = 0; guess < 10; guess++) {
        for (let a = 0; a < 30; a++) {
          const res = await attempt(`guess-${guess}-${a}-0123456789`, `10.60.${a}.1`);
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          if (res.statusCode === 429) refusal ??= { body: res.json(), retryAfter: res.headers['retry-after'] };
        }
      }
      expect(statuses).toEqual({ 401: 30, 429: 270 });
      expect(refusal?.body).toMatchObject({
        error: 'rate_limited',
        message: expect.stringMatching(/failed admin-token attempts from all addresses together: at most 30 a minute/),
      });
      expect(Number(refusal?.retryAfter)).toBeGreaterThan(0);
      // The right token, from a guessing address and from the admin's own: never locked out.
      expect((await attempt(ADMIN_TOKEN, '10.60.0.1')).statusCode).toBe(200);
      expect((await attempt(ADMIN_TOKEN, '10.61.0.1')).statusCode).toBe(200);
      // One log line per counted failure, never the token.
      expect(lines.filter((l) => JSON.parse(l).msg === 'admin token refused')).toHaveLength(30);
      expect(lines.join('')).not.toMatch(/guess-/);
    } finally {
      await t.close();
    }
  });

  it("stops one network at its own ceiling first, and a neighbour's guesses do not lock the admin out", async () => {
    const t = await buildTestApp({ adminToken: ADMIN_TOKEN, now: () => NOON });
    const attempt = (token: string, remoteAddress: string) =>
      t.inject({ method: 'GET', url: '/admin/v1/keys', headers: { authorization: `Bearer ${token}` }, remoteAddress });
    try {
      const guesses = [];
      for (let i = 0; i < 12; i++) guesses.push((await attempt(`guess-${i}-0123456789`, '10.62.0.7')).statusCode);
      expect(guesses).toEqual([...Array(10).fill(401), 429, 429]);
      expect((await attempt('guess-x-0123456789', '10.62.0.8')).json().message).toMatch(/from your network/);
      // The admin behind the same address: let in.
      expect((await attempt(ADMIN_TOKEN, '10.62.0.7')).statusCode).toBe(200);
      // A missing or malformed header is a failure like any other.
      expect((await t.inject({ method: 'GET', url: '/admin/v1/keys', remoteAddress: '10.62.0.7' })).statusCode).toBe(
        429,
      );
    } finally {
      await t.close();
    }
  });
});

/** The hand-built slate of the board-route tests, with its game logs, line history and settlements. */
let b: BoardRoutesApp;
beforeAll(async () => {
  b = await buildBoardRoutesApp({
    current: CURRENT,
    past: PAST,
    logs: ({ prop }) => [...logsOf(prop('Nikola Jokić', 'points'), 'nba', 'points', JOKIC_POINTS)],
  });
});
afterAll(() => b.close());

describe('slips that contradict themselves', () => {
  const slip = async (legs: unknown[]) => {
    const res = await b.inject({
      method: 'POST',
      url: '/api/v1/slips/evaluate',
      payload: { legs },
      headers: { authorization: `Bearer ${b.keys.pro}` },
    });
    return { status: res.statusCode, body: res.json() };
  };
  const refusal = (message: string) => ({ status: 400, body: { error: 'invalid_request', message } });

  it('refuses the same prop twice, naming the leg, however the player is written', async () => {
    const twice = await slip([
      { player: 'jokic', stat: 'rebounds', side: 'over' },
      { player: 'mikal bridges', stat: 'points', side: 'over', eventId: 'ud_1003' },
      { player: 'Nikola Jokić', stat: 'rebounds', side: 'over' },
    ]);
    expect(twice).toEqual(
      refusal('leg 3 (Nikola Jokić rebounds in pp_1002 over) repeats leg 1: a prop can be one leg of a slip only once'),
    );
    const six = await slip(Array(6).fill({ player: 'jokic', stat: 'pra', side: 'under' }));
    expect([six.status, six.body.message]).toEqual([400, expect.stringMatching(/^leg 2 .* repeats leg 1/)]);
  });

  it('refuses the over and the under of one prop', async () => {
    const both = await slip([
      { player: 'jokic', stat: 'rebounds', side: 'over' },
      { player: 'jokic', stat: 'rebounds', side: 'under' },
    ]);
    expect(both).toEqual(
      refusal(
        'leg 2 (Nikola Jokić rebounds in pp_1002 under) contradicts leg 1 (over): the over and the under of one prop cannot both win',
      ),
    );
  });

  it('still takes legs of one game on different props, flagged as correlated', async () => {
    const sameGame = await slip([
      { player: 'jokic', stat: 'rebounds', side: 'over' },
      { player: 'jokic', stat: 'pra', side: 'under' },
    ]);
    expect(sameGame.status).toBe(200);
    expect(sameGame.body).toMatchObject({ correlated: true, legs: [{ correlatedWith: [1] }, { correlatedWith: [0] }] });
  });
});

describe('the small things', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ adminToken: ADMIN_TOKEN });
  });
  afterAll(() => t.close());

  it('echoes at most about 100 characters of a bad value', async () => {
    const bad = 'x'.repeat(16 * 1024);
    for (const url of [`/api/v1/games?sport=${bad}`, `/api/v1/stream?sport=${bad.slice(0, 150)}`, `/nowhere/${bad}`]) {
      const res = await t.get(url, t.keys.sharp);
      expect(res.statusCode, url.slice(0, 30)).toBeGreaterThanOrEqual(400);
      const { message } = res.json() as { message: string };
      expect(message.length, message).toBeLessThan(400);
      expect(message).toMatch(/x{50,100}… \(\d[\d,]* characters\)/);
    }
  });

  it('refuses a player filter that normalizes to nothing', async () => {
    for (const url of [
      '/api/v1/props/results?player=%00',
      '/api/v1/props/player?name=%00',
      '/api/v1/context/player?name=...',
      '/api/v1/stream?player=%00',
    ]) {
      const res = await b.get(url, b.keys.sharp);
      expect([res.statusCode, res.json().error], url).toEqual([400, 'invalid_request']);
      expect(res.json().message, url).toMatch(/has no letter or digit to match a player by/);
    }
  });

  it('refuses labels that are not valid Unicode (a lone surrogate), where the store would change them', async () => {
    // Sent as written: JSON's \u escapes are the only way to put a lone surrogate in a body.
    const post = (url: string, json: string, headers: Record<string, string> = {}) =>
      t.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: json });
    const refusals = [
      await post('/api/v1/keys', '{"email":"fan@example.com","label":"half \\ud800 a pair"}'),
      await post('/admin/v1/keys', '{"tier":"pro","label":"\\udc00 alone"}', {
        authorization: `Bearer ${ADMIN_TOKEN}`,
      }),
    ];
    for (const res of refusals) {
      expect([res.statusCode, res.json().message]).toEqual([
        400,
        expect.stringMatching(/label: must be valid Unicode/),
      ]);
    }
    // A whole pair (an emoji) is fine, and comes back as sent.
    const emoji = await t.inject({
      method: 'POST',
      url: '/api/v1/keys',
      payload: { email: 'fan@example.com', label: 'mine 🎯' },
      remoteAddress: '10.70.0.2',
    });
    expect(emoji.statusCode).toBe(201);
    expect((await t.get('/api/v1/me', emoji.json().key)).json().label).toBe('mine 🎯');
  });

  it('says to send a JSON body when a stream-token request has none', async () => {
    for (const headers of [{}, { 'content-type': 'application/json' }]) {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/stream/tokens',
        headers: { authorization: `Bearer ${t.keys.pro}`, ...headers },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        'the request has no body: send a JSON body (Content-Type: application/json), like {}',
      );
    }
  });

  it('answers an encoded path traversal under /docs/assets with a 404', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.inject({ method, url: '/docs/assets/..%2f..%2fpackage.json' });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await t.get('/docs/assets/swagger-ui.css')).statusCode).toBe(200);
  });
});

describe('stream opens', () => {
  const start = streamApps();
  const T0 = Date.parse('2026-11-22T01:00:00.000Z');

  const board = () =>
    new TestBoardSource(
      buildBoard([{ id: 'pp_1', props: [{ player: 'Aaron Wilson', stat: 'points', line: 20.5 }] }], T0 - 11 * 60_000),
    );

  it('count refused opens as requests', async () => {
    const { app, open } = await start({ source: board() });
    const usedToday = async () => (await app.get('/api/v1/me', app.keys.free)).json().usage.today as number;
    const before = await usedToday();
    // Refused: a sport above the tier, a bad query, a malformed id, the stream cap.
    const held = await open('/api/v1/stream', app.keys.free);
    const refused = [
      await open('/api/v1/stream?sport=mlb', app.keys.free),
      await open('/api/v1/stream?stats=NOPE', app.keys.free),
      await open('/api/v1/stream', app.keys.free, { 'last-event-id': 'abc' }),
      await open('/api/v1/stream', app.keys.free),
    ];
    expect([held.status, ...refused.map((r) => r.status)]).toEqual([200, 403, 400, 400, 429]);
    expect(JSON.parse(refused[3]?.body ?? '{}').error).toBe('too_many_streams');
    // Each counted, like the open that succeeded and the /me call after them.
    expect(await usedToday()).toBe(before + 2 + refused.length);
  });

  it('burn a token only when a stream opens with it', async () => {
    const { app, open } = await start({ source: board() });
    const token = (
      await app.inject({
        method: 'POST',
        url: '/api/v1/stream/tokens',
        headers: { authorization: `Bearer ${app.keys.free}` },
        payload: {},
      })
    ).json().token as string;
    const refused = await open(`/api/v1/stream?sport=mlb&token=${token}`);
    expect([refused.status, JSON.parse(refused.body).error]).toEqual([403, 'sport_not_in_tier']);
    // The token refused with a 403 still opens a stream, once.
    const byToken = await open(`/api/v1/stream?token=${token}`);
    expect(byToken.status).toBe(200);
    await byToken.waitFor(1, 'snapshot');
    byToken.close();
    await byToken.closed;
    const again = await open(`/api/v1/stream?token=${token}`);
    expect([again.status, JSON.parse(again.body).error]).toEqual([401, 'invalid_api_key']);
  });
});
