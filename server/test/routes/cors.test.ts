/**
 * CORS: browser pages call every keyed route from any origin by default, or from
 * PROPS_CORS_ORIGINS only; preflights answer 204 with what a page sends, never credentials.
 * (POST /mcp's preflight too; the POST itself then meets the DNS-rebinding guard, which admits
 * loopback pages, PROPS_ALLOWED_ORIGINS and a listed PROPS_CORS_ORIGINS: mcp/http.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { buildTestApp, type TestApp } from '../helpers/app';
import { KEYED_ROUTES } from './keyed.common';

const PAGE = 'https://app.example';
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

function preflight(app: TestApp, url: string, origin: string, method = 'GET', headers = 'authorization') {
  return app.inject({
    method: 'OPTIONS',
    url,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

describe('CORS, any origin (the default)', () => {
  it.each([...KEYED_ROUTES.map((r) => [r.name, r.url, 'GET'] as const), ['mcp', '/mcp', 'POST'] as const])(
    'answers the preflight of %s',
    async (_name, url, method) => {
      const res = await preflight(t, url, PAGE, method, 'authorization, content-type, mcp-protocol-version');
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-allow-methods'])).toContain(method);
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
      for (const h of ['authorization', 'content-type', 'mcp-protocol-version']) expect(allowed).toContain(h);
      expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    },
  );

  it('lets a page read answers, errors included, with the limit headers and request id', async () => {
    const ok = await t.get('/api/v1/me', t.keys.free, { origin: PAGE });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(ok.headers['access-control-expose-headers']).toLowerCase();
    for (const h of ['ratelimit', 'x-ratelimit-remaining', 'retry-after', 'x-request-id']) expect(exposed).toContain(h);
    const refused = await t.get('/api/v1/me', undefined, { origin: PAGE });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
  });

  it('adds nothing for a request with no Origin', async () => {
    const res = await t.get('/api/v1/me', t.keys.free);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS with PROPS_CORS_ORIGINS', () => {
  it('allows only the listed origins, answering each with its own origin', async () => {
    const origins = loadConfig({ PROPS_CORS_ORIGINS: `${PAGE}, http://localhost:5173` }).PROPS_CORS_ORIGINS;
    expect(origins).toEqual([PAGE, 'http://localhost:5173']);
    const listed = await buildTestApp({ corsOrigins: origins });
    try {
      const allowed = await preflight(listed, '/api/v1/props', 'http://localhost:5173');
      expect(allowed.statusCode).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      expect(String(allowed.headers.vary)).toContain('Origin');
      const other = await preflight(listed, '/api/v1/props', 'https://evil.example');
      expect(other.statusCode).toBe(204);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      expect(other.headers['access-control-allow-methods']).toBeUndefined();
      const get = await listed.get('/api/v1/me', listed.keys.free, { origin: 'https://evil.example' });
      expect(get.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await listed.close();
    }
  });

  it('refuses a value that is not a list of origins, naming the variable', () => {
    expect(loadConfig({}).PROPS_CORS_ORIGINS).toBe('*');
    for (const bad of ['app.example', 'https://app.example/path', 'https://a.example,,']) {
      expect(() => loadConfig({ PROPS_CORS_ORIGINS: bad })).toThrow(/PROPS_CORS_ORIGINS: .*is not an origin/);
    }
  });
});
