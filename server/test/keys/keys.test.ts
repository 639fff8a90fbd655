/** Keys: format, hash-only storage, the CLI's admin API against a running server, admin HTTP, free sign-up. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config';
import { KeyCache } from '../../src/keys/cache';
import { generateKey, hashKeyHex, isWellFormedKey } from '../../src/keys/format';
import { issueKey, KeyInputError } from '../../src/keys/issue';
import { type KeyAdmin, openKeyAdmin } from '../../src/keys/keyAdmin';
import type { KeyStore } from '../../src/store/types';
import { buildTestApp, type TestApp } from '../helpers/app';

const ADMIN_TOKEN = 'admin-token-0123456789';
let t: TestApp;
let admin: KeyAdmin;

beforeAll(async () => {
  t = await buildTestApp({ adminToken: ADMIN_TOKEN });
  // A second store connection on the same folder: what `props keys` in another process opens.
  admin = await openKeyAdmin(loadConfig({ PROPS_DATA_DIR: t.dataDir }));
});
afterAll(async () => {
  await admin.close();
  await t.close();
});

describe('key format', () => {
  it('is pf_ and 32 base62 characters, random', () => {
    const keys = new Set(Array.from({ length: 200 }, generateKey));
    expect(keys.size).toBe(200);
    for (const k of keys) expect(k).toMatch(/^pf_[0-9A-Za-z]{32}$/);
    expect(isWellFormedKey('pf_abc')).toBe(false);
    expect(hashKeyHex('pf_x')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('openKeyAdmin (props keys)', () => {
  it('creates keys with their limits; only the hash is stored', async () => {
    const created = await admin.create({ tier: 'pro', label: 'laptop' });
    expect(created).toMatchObject({ keyPrefix: created.key.slice(0, 8), tier: 'pro', label: 'laptop' });
    expect(created.limits).toMatchObject({ requestsPerMinute: 120, requestsPerDay: 20_000, scanLimit: 1000 });
    const db = readFileSync(join(t.dataDir, 'propsfeed.db'));
    const wal = (() => {
      try {
        return readFileSync(join(t.dataDir, 'propsfeed.db-wal'));
      } catch {
        return Buffer.alloc(0);
      }
    })();
    expect(Buffer.concat([db, wal]).includes(created.key.slice(3))).toBe(false);
  });

  it('sets enterprise limits per key and refuses them on other tiers', async () => {
    const big = await admin.create({
      tier: 'enterprise',
      label: 'bench',
      rpm: 1_000_000,
      rpd: 50_000_000,
      scanLimit: 5000,
    });
    expect(big.limits).toMatchObject({ requestsPerMinute: 1_000_000, requestsPerDay: 50_000_000, scanLimit: 5000 });
    await expect(admin.create({ tier: 'pro', label: 'x', rpm: 5 })).rejects.toBeInstanceOf(KeyInputError);
    await expect(admin.create({ tier: 'pro', label: 'x', scanLimit: 5 })).rejects.toMatchObject({
      field: 'scanLimit',
      problem: 'can be set only on enterprise keys',
      message: 'scanLimit: can be set only on enterprise keys',
    });
    await expect(admin.create({ tier: 'enterprise', label: 'x', scanLimit: 9000 })).rejects.toThrow(/at most 5000/);
    await expect(admin.create({ tier: 'gold' as 'pro', label: 'x' })).rejects.toThrow(
      "tier: 'gold' is not a tier; one of free, pro, sharp, enterprise",
    );
    await expect(admin.create({ tier: 'pro', label: '' })).rejects.toThrow(/label/);
  });

  it('takes effect in the running server within a second, and so does revocation', async () => {
    const { key, keyPrefix } = await admin.create({ tier: 'sharp', label: 'from the CLI' });
    await vi.waitFor(async () => expect((await t.get('/api/v1/me', key)).statusCode).toBe(200), {
      timeout: 1000,
      interval: 20,
    });
    expect(await admin.revoke(keyPrefix)).toBe(true);
    await vi.waitFor(async () => expect((await t.get('/api/v1/me', key)).statusCode).toBe(401), {
      timeout: 1000,
      interval: 20,
    });
    expect(await admin.revoke(keyPrefix)).toBe(false);
    const row = (await admin.list()).find((k) => k.keyPrefix === keyPrefix);
    expect(row).toMatchObject({ tier: 'sharp', label: 'from the CLI', revokedAt: expect.any(String) });
    expect(JSON.stringify(await admin.list())).not.toContain(key);
  });
});

describe('/admin/v1/keys', () => {
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

  it('is closed without the admin token', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: `Bearer ${t.keys.enterprise}` },
    ]) {
      const res = await t.inject({ method: 'GET', url: '/admin/v1/keys', headers });
      expect(res.statusCode).toBe(401);
    }
  });

  it('creates, lists and revokes keys', async () => {
    const created = await t.inject({
      method: 'POST',
      url: '/admin/v1/keys',
      headers: auth,
      payload: { tier: 'pro', label: 'partner' },
    });
    expect(created.statusCode).toBe(201);
    const { key, keyPrefix } = created.json();
    expect((await t.get('/api/v1/me', key)).json().tier).toBe('pro');
    const list = (await t.inject({ method: 'GET', url: '/admin/v1/keys', headers: auth })).json();
    expect(list.keys.some((k: { keyPrefix: string }) => k.keyPrefix === keyPrefix)).toBe(true);
    const revoked = await t.inject({ method: 'DELETE', url: `/admin/v1/keys/${keyPrefix}`, headers: auth });
    expect(revoked.statusCode).toBe(200);
    expect((await t.get('/api/v1/me', key)).statusCode).toBe(401);
    const again = await t.inject({ method: 'DELETE', url: `/admin/v1/keys/${keyPrefix}`, headers: auth });
    expect(again.json().error).toBe('not_found');
  });

  it('answers 400 to a bad key request', async () => {
    for (const payload of [
      { tier: 'gold', label: 'x' },
      { tier: 'pro' },
      { tier: 'pro', label: 'x', rpm: 5 },
      { tier: 'pro', label: 'x', extra: 1 },
    ]) {
      const res = await t.inject({ method: 'POST', url: '/admin/v1/keys', headers: auth, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
  });

  it('does not exist when PROPS_ADMIN_TOKEN is unset', async () => {
    const plain = await buildTestApp();
    expect((await plain.inject({ method: 'GET', url: '/admin/v1/keys' })).statusCode).toBe(404);
    await plain.close();
  });
});

describe('POST /api/v1/keys', () => {
  it('gives a working free key, a few per client address', async () => {
    const ask = (ip: string) =>
      t.inject({ method: 'POST', url: '/api/v1/keys', payload: { email: 'fan@example.com' }, remoteAddress: ip });
    const first = await ask('10.0.0.1');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ tier: 'free', label: 'fan@example.com', limits: { scanLimit: 100 } });
    expect((await t.get('/api/v1/me', first.json().key)).json().tier).toBe('free');
    await ask('10.0.0.1');
    await ask('10.0.0.1');
    const refused = await ask('10.0.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask('10.0.1.1')).statusCode).toBe(201);
  });

  it('keeps the ceiling per /24 and /64, so rotating addresses inside one resets nothing', async () => {
    const ask = (ip: string) =>
      t.inject({ method: 'POST', url: '/api/v1/keys', payload: { email: 'fan@example.com' }, remoteAddress: ip });
    const v4 = await Promise.all(['10.1.2.1', '10.1.2.77', '10.1.2.254', '10.1.2.9'].map(ask));
    expect(v4.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 429]);
    const refused = v4.find((r) => r.statusCode === 429);
    expect(refused?.json().message).toMatch(
      /^too many new free keys from your network .*at most 3 a minute and 10 a day; retry in \d+ s$/,
    );
    expect((await ask('::ffff:10.1.2.200')).statusCode).toBe(429);
    expect((await ask('10.1.3.1')).statusCode).toBe(201);
    for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2:ffff::9', '2001:0db8:0001:0002:1:2:3:4']) {
      expect((await ask(ip)).statusCode, ip).toBe(201);
    }
    expect((await ask('2001:db8:1:2:abcd::1')).statusCode).toBe(429);
    expect((await ask('2001:db8:1:3::1')).statusCode).toBe(201);
  });

  it('answers input the contract accepts without a 500, and a refusal spends none of the address sign-ups', async () => {
    const ip = '10.0.4.1';
    const ask = (payload: object) => t.inject({ method: 'POST', url: '/api/v1/keys', payload, remoteAddress: ip });
    // Refused before it can spend a sign-up: a label of spaces, a bad email.
    for (const payload of [{ email: 'fan@example.com', label: '   ' }, { email: 'not-an-email' }]) {
      const refused = await ask(payload);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error).toBe('invalid_request');
    }
    expect((await ask({ email: 'fan@example.com', label: '   ' })).json().message).toMatch(
      /label: .*other than spaces/,
    );
    // A 137-character email and no label: the label defaults to the email, shortened to fit.
    const long = `${'a'.repeat(125)}@example.com`;
    expect(long).toHaveLength(137);
    const created = await ask({ email: long });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().label).toBe(`${long.slice(0, 99)}…`);
    // Three sign-ups a minute per address, and the refusals above spent none of them.
    expect((await ask({ email: 'fan@example.com' })).statusCode).toBe(201);
    expect((await ask({ email: 'fan@example.com', label: ' padded ' })).json().label).toBe('padded');
    expect((await ask({ email: 'fan@example.com' })).statusCode).toBe(429);
  });

  it('refuses control characters in labels and emails, in a sentence, before spending a sign-up', async () => {
    const ip = '10.0.5.1';
    const hostile = [
      '\u001b]0;owned\u0007title', // set the terminal title
      'clear\u001b[2J\u001b[H', // clear the screen
      '\u001b[31mred\u001b[0m', // colours
      'nul\u0000byte',
      'two\nlines',
      'bidi\u202Eevil',
      'c1\u009Bcsi',
    ];
    const signUp = (payload: object) => t.inject({ method: 'POST', url: '/api/v1/keys', payload, remoteAddress: ip });
    for (const label of hostile) {
      const res = await signUp({ email: 'fan@example.com', label });
      expect(res.statusCode, JSON.stringify(label)).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'invalid_request',
        message: expect.stringMatching(/label: control characters/),
      });
    }
    const email = await signUp({ email: 'fan\u001b[2J@example.com' });
    expect(email.statusCode).toBe(400);
    expect(email.json().message).toMatch(/email: control characters/);
    const ok = await signUp({ email: 'fan@example.com' });
    expect(ok.statusCode).toBe(201);
  });
});

describe('the sign-up ceilings for everyone', () => {
  /** A sign-up on `app` from the address. */
  const signUpOn = (app: TestApp) => (ip: string) =>
    app.inject({ method: 'POST', url: '/api/v1/keys', payload: { email: 'fan@example.com' }, remoteAddress: ip });

  it("keep each network's first key of the day apart from the shared ceiling, spending nothing on refusals", async () => {
    let nowMs = Date.parse('2026-11-22T12:00:00Z');
    const small = await buildTestApp({ signupCeiling: { perMinute: 4, perDay: 5 }, now: () => nowMs });
    const ask = signUpOn(small);
    try {
      // Four networks' first keys, then their second ones: the shared ceiling takes 4 a minute.
      for (let i = 0; i < 4; i++) expect((await ask(`10.2.${i}.1`)).statusCode).toBe(201);
      for (let i = 0; i < 4; i++) expect((await ask(`10.2.${i}.2`)).statusCode).toBe(201);
      const full = await ask('10.2.0.3');
      expect(full.statusCode).toBe(429);
      expect(full.json()).toMatchObject({
        error: 'rate_limited',
        message: expect.stringMatching(
          /^your network has had its first key of the day, and this server is making no more beyond each network's first right now: at most 4 a minute and 5 a day; retry in \d+ s$/,
        ),
      });
      expect(Number(full.headers['retry-after'])).toBeGreaterThan(0);
      // A network new today still gets its first.
      expect((await ask('10.2.9.1')).statusCode).toBe(201);
      // A minute on: one more shared key today, then the day's shared ceiling.
      nowMs += 61_000;
      expect((await ask('10.2.0.3')).statusCode).toBe(201);
      const day = await ask('10.2.1.3');
      expect(day.statusCode).toBe(429);
      expect(Number(day.headers['retry-after'])).toBe(12 * 3600 - 61);
      // The network refused by the shared ceiling spent none of its own: it makes 3 tomorrow.
      nowMs = Date.parse('2026-11-23T00:00:01Z');
      for (let i = 0; i < 3; i++) expect((await ask(`10.2.1.${i + 1}`)).statusCode).toBe(201);
      expect((await ask('10.2.1.9')).json().message).toMatch(/from your network/);
    } finally {
      await small.close();
    }
  });

  it('hold first keys to their own ceiling, ten times the shared one, and count an IPv6 site by its /48', async () => {
    const nowMs = Date.parse('2026-11-22T12:00:00Z');
    const small = await buildTestApp({ signupCeiling: { perMinute: 2, perDay: 100 }, now: () => nowMs });
    const ask = signUpOn(small);
    try {
      // 20 first keys a minute, then 2 more from the shared ceiling, then none for anyone.
      const statuses = [];
      for (let i = 0; i < 24; i++) statuses.push((await ask(`10.3.${i}.1`)).statusCode);
      expect(statuses).toEqual([...Array(22).fill(201), 429, 429]);
      expect((await ask('10.4.0.1')).json().message).toMatch(/^this server is making no more new free keys for anyone/);
    } finally {
      await small.close();
    }
    const v6 = await buildTestApp({ signupCeiling: { perMinute: 1, perDay: 100 }, now: () => nowMs });
    const ask6 = signUpOn(v6);
    try {
      // Two /64s of one /48: the first is the site's first key, the second takes the shared one, the third none.
      expect((await ask6('2001:db8:7:1::1')).statusCode).toBe(201);
      expect((await ask6('2001:db8:7:2::1')).statusCode).toBe(201);
      expect((await ask6('2001:db8:7:3::1')).statusCode).toBe(429);
      expect((await ask6('2001:db8:8:1::1')).statusCode).toBe(201);
    } finally {
      await v6.close();
    }
  });
});

describe('the client address behind proxies', () => {
  const signUp = (app: TestApp, remoteAddress: string, forwarded: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/keys',
      payload: { email: 'fan@example.com' },
      remoteAddress,
      headers: { 'x-forwarded-for': forwarded },
    });

  it('ignores X-Forwarded-For unless PROPS_TRUST_PROXY trusts the proxy', async () => {
    const spoofed = await Promise.all(
      ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'].map((xff) => signUp(t, '10.3.0.1', xff)),
    );
    expect(spoofed.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 429]);

    const byHops = await buildTestApp({ trustProxy: 1 });
    const byCidr = await buildTestApp({ trustProxy: ['10.9.0.0/16', '::1'] });
    try {
      // Every user behind one balancer: each is counted on its own network.
      for (const xff of ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4']) {
        expect((await signUp(byHops, '10.9.0.1', `9.9.9.9, ${xff}`)).statusCode, xff).toBe(201);
        expect((await signUp(byCidr, '10.9.0.1', `${xff}`)).statusCode, xff).toBe(201);
      }
      // A client that is not the trusted proxy cannot choose its address.
      const direct = await Promise.all(
        ['5.5.5.5', '6.6.6.6', '7.7.7.7', '8.8.8.8'].map((xff) => signUp(byCidr, '10.8.0.1', xff)),
      );
      expect(direct.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 429]);
    } finally {
      await byHops.close();
      await byCidr.close();
    }
  });
});

describe('the key cache', () => {
  it('catches up on keys made or revoked elsewhere without reading the whole key table', async () => {
    let fullReads = 0;
    const counted: KeyStore = {
      ...t.store,
      listKeys: () => {
        fullReads += 1;
        return t.store.listKeys();
      },
    };
    const cache = new KeyCache(counted);
    await cache.refresh();
    expect(fullReads).toBe(1);
    const made = [];
    for (let i = 0; i < 20; i++) made.push(await admin.create({ tier: 'pro', label: `elsewhere ${i}` }));
    await cache.refresh();
    for (const k of made) expect(cache.lookup(k.key)?.label).toMatch(/^elsewhere/);
    expect(await admin.revoke(made[3]?.keyPrefix ?? '')).toBe(true);
    await cache.refresh();
    expect(cache.lookup(made[3]?.key ?? '')).toBeUndefined();
    expect(cache.lookup(made[4]?.key ?? '')?.tier).toBe('pro');
    expect(fullReads).toBe(1);
    // A key stamped long before the newest change (a clock far behind) is beyond catching up: one full read finds it.
    const { created } = await issueKey(t.store, { tier: 'free', label: 'from the past' }, 1_000);
    await cache.refresh();
    expect(fullReads).toBe(2);
    expect(cache.lookup(created.key)?.label).toBe('from the past');
    await cache.refresh();
    expect(fullReads).toBe(2);
  });
});

describe('control characters through the admin API and key checks', () => {
  it('refuses them, NUL included', async () => {
    for (const label of ['nul\u0000byte', '\u001b[2Jclear', 'tab\there']) {
      const res = await t.inject({
        method: 'POST',
        url: '/admin/v1/keys',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { tier: 'pro', label },
      });
      expect(res.statusCode, JSON.stringify(label)).toBe(400);
      expect(res.json().message).toMatch(/label: control characters/);
      await expect(admin.create({ tier: 'pro', label })).rejects.toThrow(/label: control characters/);
    }
  });
});

describe('admin-token guessing', () => {
  it('is refused per network after 10 failures a minute, never the right token, and logged without the token', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    let nowMs = Date.parse('2026-11-22T12:00:00Z');
    const guarded = await buildTestApp({ adminToken: ADMIN_TOKEN, logStream, now: () => nowMs });
    const attempt = (token: string, remoteAddress = '10.0.7.1') =>
      guarded.inject({
        method: 'GET',
        url: '/admin/v1/keys',
        headers: { authorization: `Bearer ${token}` },
        remoteAddress,
      });
    try {
      for (let i = 0; i < 10; i++) expect((await attempt(`guess-${i}-0123456789`)).statusCode).toBe(401);
      // Its network's neighbour too: the ceiling is the /24's.
      const blocked = await attempt('guess-10-0123456789', '10.0.7.99');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toMatchObject({
        error: 'rate_limited',
        message: expect.stringMatching(/failed admin-token attempts from your network .*: at most 10 a minute/),
      });
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // The right token is compared first: never refused, from that address or another.
      expect((await attempt(ADMIN_TOKEN)).statusCode).toBe(200);
      expect((await attempt(ADMIN_TOKEN, '10.0.8.2')).statusCode).toBe(200);
      // Another network is not held back; a minute on, this one may try again.
      expect((await attempt('guess-x-0123456789', '10.0.8.2')).statusCode).toBe(401);
      nowMs += 61_000;
      expect((await attempt('guess-y-0123456789')).statusCode).toBe(401);
      const refusals = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'admin token refused');
      expect(refusals).toHaveLength(12);
      expect(refusals[9]).toMatchObject({ ip: '10.0.7.1', failuresThisMinute: 10 });
      expect(lines.join('')).not.toMatch(/guess-/);
    } finally {
      await guarded.close();
    }
  });
});
