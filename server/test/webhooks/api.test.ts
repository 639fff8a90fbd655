/**
 * The webhook routes as an integrator meets them: registering (and what is refused: SSRF
 * targets, tiers without webhooks, more endpoints than the tier allows, filters outside the
 * tier), listing, changing, pausing, deleting, rotating the secret (both signatures verify
 * meanwhile), the test ping, and each endpoint receiving its tier's view through its filters.
 * Every delivery is verified by the receiver with the `standardwebhooks` package.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameSpec } from '../helpers/board';
import { until, type WebhookTest, webhookTest } from './setup';

const ABOVE = { overOdds: -140, underOdds: 120 };

function board(step: number): GameSpec[] {
  return [
    {
      id: 'pp_1',
      props: [
        { player: 'Aaron Wilson', stat: 'points', line: 20.5 + step },
        { player: 'Aaron Wilson', stat: 'rebounds', line: 7.5 + step },
        { player: 'Ben Cole', stat: 'points', line: 12.5, books: ['prizepicks'] },
      ],
    },
    { id: 'pp_2', sport: 'nfl', props: [{ player: 'Carl Diaz', stat: 'passing_yards', line: 250.5 + step }] },
    { id: 'pp_3', live: true, props: [{ player: 'Dan Evans', stat: 'points', line: 9.5 + step, liveValue: step }] },
    { id: 'pp_4', sport: 'mlb', props: [{ player: 'Eli Ford', stat: 'hits', line: 0.5 + step, ...ABOVE }] },
  ];
}

let w: WebhookTest;
beforeAll(async () => {
  w = await webhookTest({ specs: board(0) });
});
afterAll(async () => {
  await w.close();
});

const post = (key: string, body: unknown) => w.call('POST', '/api/v1/webhooks', key, body);

describe('bodies', () => {
  it('an empty body with Content-Type: application/json is no error on GET and DELETE; on POST it is a 400, and so is a malformed one', async () => {
    const headers = { authorization: `Bearer ${w.t.keys.sharp}`, 'content-type': 'application/json' };
    const listed = await w.t.inject({ method: 'GET', url: '/api/v1/webhooks', headers });
    expect(listed.statusCode).toBe(200);
    const missing = await w.t.inject({ method: 'DELETE', url: `/api/v1/webhooks/wh_${'0'.repeat(24)}`, headers });
    expect(missing.statusCode).toBe(404);
    const empty = await w.t.inject({ method: 'POST', url: '/api/v1/webhooks', headers });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/^the request has no body/);
    const malformed = await w.t.inject({ method: 'POST', url: '/api/v1/webhooks', headers, payload: '{"url":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe('invalid_request');
  });
});

describe('registering an endpoint', () => {
  it('answers 201 with the endpoint and its whsec_ secret, shown only then', async () => {
    const res = await post(w.t.keys.pro, {
      url: w.receiver.url,
      events: ['prop.line_moved', 'game.final'],
      filters: { sports: ['nba'], stats: ['points', 'points'] },
      description: 'Discord #nba',
    });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      id: expect.stringMatching(/^wh_[0-9A-Za-z]{24}$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{40,}$/),
      events: ['prop.line_moved', 'game.final'],
      filters: { sports: ['nba'], stats: ['points'] },
      thresholds: { line: 0.5, odds: 10 },
      status: 'active',
      eventsPerMinute: 600,
    });
    const got = (await w.call('GET', `/api/v1/webhooks/${created.id}`, w.t.keys.pro)).json();
    expect(got.secret).toBeUndefined();
    expect(got.id).toBe(created.id);
    await w.call('DELETE', `/api/v1/webhooks/${created.id}`, w.t.keys.pro);
  });

  it.each([
    ['http://169.254.169.254/', "url: the url's host is a cloud metadata address"],
    [
      'http://10.0.0.1/',
      "url: the url's host is a private network address (allowed only with PROPS_WEBHOOK_ALLOW_PRIVATE)",
    ],
    [
      'https://[::ffff:10.0.0.1]/x',
      "url: the url's host is a private network address (allowed only with PROPS_WEBHOOK_ALLOW_PRIVATE)",
    ],
  ])('refuses the SSRF target %s with 400 saying why', async (url, message) => {
    const res = await post(w.t.keys.sharp, { url, events: ['game.final'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'invalid_request', message });
  });

  it('refuses a name resolving to 127.0.0.1 without the allow setting (and accepts it with it)', async () => {
    const strict = await webhookTest({ webhooks: { targets: { allowHttp: false } } });
    try {
      const res = await strict.call('POST', '/api/v1/webhooks', strict.t.keys.sharp, {
        url: 'https://hooks.test/in',
        events: ['game.final'],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        "url: the url's host is a loopback address (allowed only with PROPS_WEBHOOK_ALLOW_HTTP, for development) (hooks.test resolves to 127.0.0.1)",
      );
      const http = await strict.call('POST', '/api/v1/webhooks', strict.t.keys.sharp, {
        url: 'http://hooks.test/in',
        events: ['game.final'],
      });
      expect(http.json().message).toMatch(/^url: the url must be https:\/\//);
    } finally {
      await strict.close();
    }
    const allowed = await post(w.t.keys.sharp, { url: 'http://hooks.test:9/in', events: ['game.final'] });
    expect(allowed.statusCode).toBe(201);
    await w.call('DELETE', `/api/v1/webhooks/${allowed.json().id}`, w.t.keys.sharp);
  });

  it('answers the free tier 403 route_not_in_tier naming the tier and pro', async () => {
    const res = await post(w.t.keys.free, { url: w.receiver.url, events: ['game.final'] });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'route_not_in_tier',
      message: '/api/v1/webhooks is not included in the free tier',
      requiredTier: 'pro',
    });
  });

  it('holds a key to its tier: pro 5 endpoints (too_many_webhooks naming sharp), pro sports only', async () => {
    const key = await w.t.createKey({ tier: 'pro' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await post(key, { url: w.receiver.url, events: ['game.final'] })).json().id);
    const sixth = await post(key, { url: w.receiver.url, events: ['game.final'] });
    expect(sixth.statusCode).toBe(403);
    expect(sixth.json()).toEqual({
      error: 'too_many_webhooks',
      message: "this key already has 5 webhook endpoints, the pro tier's most; delete one first",
      requiredTier: 'sharp',
    });
    const list = (await w.call('GET', '/api/v1/webhooks', key)).json();
    expect(list).toMatchObject({ count: 5, max: 5 });
    expect(list.webhooks.map((h: { id: string }) => h.id)).toEqual(ids);
    const nfl = await post(w.t.keys.pro, { url: w.receiver.url, events: ['game.final'], filters: { sports: ['nfl'] } });
    expect(nfl.statusCode).toBe(403);
    expect(nfl.json()).toMatchObject({ error: 'sport_not_in_tier', requiredTier: 'sharp' });
  });

  it('holds the endpoint cap against concurrent registrations, listing them in the order registered', async () => {
    const key = await w.t.createKey({ tier: 'pro' });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => post(key, { url: w.receiver.url, events: ['game.final'] })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([...Array(5).fill(201), ...Array(7).fill(403)]);
    const created = answers.filter((a) => a.statusCode === 201).map((a) => a.json().id);
    const list = (await w.call('GET', '/api/v1/webhooks', key)).json();
    expect(list.count).toBe(5);
    expect(list.webhooks.map((h: { id: string }) => h.id)).toEqual(created);
  });

  it('refuses what it could never act on: prop.edge without minEdge, an unknown entry or stat, unknown fields', async () => {
    const cases: [unknown, RegExp][] = [
      [{ events: ['prop.edge'] }, /^minEdge: prop\.edge needs/],
      [{ events: ['prop.edge'], minEdge: 0.03, entry: 'no_such_entry' }, /unknown entry type 'no_such_entry'/],
      [
        { events: ['game.final'], filters: { sports: ['nba'], stats: ['strikeouts'] } },
        /'strikeouts' is not a stat key of nba/,
      ],
      [{ events: ['game.final'], colour: 'red' }, /colour/],
      [{ events: ['game.final', 'game.final'] }, /each event type once/],
      [{ events: ['ping'] }, /events/],
    ];
    for (const [body, message] of cases) {
      const res = await post(w.t.keys.sharp, { url: w.receiver.url, ...(body as object) });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });

  it("answers 404 for another key's endpoint, as for none", async () => {
    const { id } = (await post(w.t.keys.sharp, { url: w.receiver.url, events: ['game.final'] })).json();
    for (const [method, url] of [
      ['GET', `/api/v1/webhooks/${id}`],
      ['DELETE', `/api/v1/webhooks/${id}`],
      ['POST', `/api/v1/webhooks/${id}/test`],
      ['GET', `/api/v1/webhooks/${id}/deliveries`],
    ] as const) {
      const res = await w.call(method, url, w.t.keys.enterprise, method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    await w.call('DELETE', `/api/v1/webhooks/${id}`, w.t.keys.sharp);
  });
});

describe('deliveries to registered endpoints', () => {
  it('sends each endpoint what its filters and its tier’s view select, verified by standardwebhooks', async () => {
    const at = (name: string) => ({ url: `${w.receiver.url}/${name}` });
    const sharp = await w.register(w.t.keys.sharp, { ...at('sharp'), events: ['prop.line_moved'] });
    const pro = await w.register(w.t.keys.pro, {
      ...at('pro'),
      events: ['prop.line_moved'],
      filters: { stats: ['points'] },
    });
    const ud = await w.register(w.t.keys.sharp, {
      ...at('ud'),
      events: ['prop.line_moved'],
      filters: { books: ['underdog'] },
    });
    const before = w.receiver.received.length;
    w.publish(board(1));
    await until(() => w.receiver.received.length - before >= 11);
    await w.t.webhooks?.produced();
    await new Promise((r) => setTimeout(r, 200));
    const arrived = w.receiver.received.slice(before);
    expect(arrived.filter((r) => !r.event)).toEqual([]);
    const seen = (name: string) =>
      arrived
        .filter((r) => r.path.endsWith(`/${name}`))
        .map((r) => {
          const { row } = (r.event as { data: { row: { player: string; stat: string } } }).data;
          return `${row.player} ${row.stat}`;
        })
        .sort();
    // Sharp: every moved prop, the live game's and nfl's included; Ben Cole's line did not move.
    const moved = [
      'Aaron Wilson points',
      'Aaron Wilson rebounds',
      'Carl Diaz passing_yards',
      'Dan Evans points',
      'Eli Ford hits',
    ];
    expect(seen('sharp')).toEqual(moved);
    // Pro: points only, and neither the live game's props nor nfl (not in the tier).
    expect(seen('pro')).toEqual(['Aaron Wilson points']);
    // Underdog posts all but Ben Cole's; its own lines moved.
    expect(seen('ud')).toEqual(moved);
    // Each message once per endpoint.
    for (const name of ['sharp', 'pro', 'ud']) {
      const ids = arrived.filter((r) => r.path.endsWith(`/${name}`)).map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
    await w.call('DELETE', `/api/v1/webhooks/${sharp.id}`, w.t.keys.sharp);
    await w.call('DELETE', `/api/v1/webhooks/${ud.id}`, w.t.keys.sharp);
    await w.call('DELETE', `/api/v1/webhooks/${pro.id}`, w.t.keys.pro);
  });

  it('pings on demand and answers with the attempt; the ping is in the delivery log', async () => {
    const { id } = await w.register(w.t.keys.sharp, { events: ['game.final'] });
    const res = await w.call('POST', `/api/v1/webhooks/${id}/test`, w.t.keys.sharp, {});
    expect(res.statusCode).toBe(200);
    const ping = res.json();
    expect(ping).toMatchObject({ type: 'ping', status: 'succeeded', attempts: 1, responseStatus: 200, error: null });
    const arrived = w.receiver.received.at(-1);
    expect(arrived?.id).toBe(ping.id);
    expect(arrived?.event).toMatchObject({ type: 'ping', data: { webhookId: id } });
    const log = (await w.call('GET', `/api/v1/webhooks/${id}/deliveries`, w.t.keys.sharp)).json();
    expect(log.deliveries[0]).toEqual(ping);
    await w.call('DELETE', `/api/v1/webhooks/${id}`, w.t.keys.sharp);
  });

  it('during a rotation signs with both secrets; each verifies on its own', async () => {
    const { id, secret: old } = await w.register(w.t.keys.sharp, { events: ['game.final'] });
    const rotated = (await w.call('POST', `/api/v1/webhooks/${id}/rotate-secret`, w.t.keys.sharp, {})).json();
    expect(rotated.secret).not.toBe(old);
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    w.receiver.secrets = [old];
    await w.call('POST', `/api/v1/webhooks/${id}/test`, w.t.keys.sharp, {});
    const arrived = w.receiver.received.at(-1);
    expect(String(arrived?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(arrived?.event?.type).toBe('ping');
    expect(verifies(arrived as never, rotated.secret)).toBe(true);
    expect((await w.call('GET', `/api/v1/webhooks/${id}`, w.t.keys.sharp)).json().previousSecretExpiresAt).toBe(
      rotated.previousSecretExpiresAt,
    );
    await w.call('DELETE', `/api/v1/webhooks/${id}`, w.t.keys.sharp);
  });

  it('sends a paused endpoint nothing until it is resumed; a deleted one nothing at all', async () => {
    const { id } = await w.register(w.t.keys.sharp, { events: ['prop.line_moved'], filters: { games: ['pp_1'] } });
    const paused = await w.call('PATCH', `/api/v1/webhooks/${id}`, w.t.keys.sharp, { status: 'paused' });
    expect(paused.json().status).toBe('paused');
    const before = w.receiver.received.length;
    w.publish(board(2));
    await w.t.webhooks?.produced();
    await new Promise((r) => setTimeout(r, 300));
    expect(w.receiver.received.length).toBe(before);
    expect((await w.call('PATCH', `/api/v1/webhooks/${id}`, w.t.keys.sharp, { status: 'active' })).json().status).toBe(
      'active',
    );
    w.publish(board(3));
    await until(() => w.receiver.received.length >= before + 2);
    // Sent as many clients send every call: Content-Type: application/json, no body.
    const deleted = await w.t.inject({
      method: 'DELETE',
      url: `/api/v1/webhooks/${id}`,
      headers: { authorization: `Bearer ${w.t.keys.sharp}`, 'content-type': 'application/json' },
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ id, deleted: true });
    const after = w.receiver.received.length;
    w.publish(board(4));
    await w.t.webhooks?.produced();
    await new Promise((r) => setTimeout(r, 300));
    expect(w.receiver.received.length).toBe(after);
  });
});

import { Webhook } from 'standardwebhooks';
import type { Received } from './receiver';

function verifies(r: Received, secret: string): boolean {
  try {
    new Webhook(secret).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
}
