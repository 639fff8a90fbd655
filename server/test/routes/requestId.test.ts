/** Every answer names its request id: the client's when well-formed, a fresh one otherwise. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const GENERATED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('x-request-id', () => {
  it.each([
    ['a keyed answer', '/api/v1/games', true],
    ['a refusal', '/api/v1/games', false],
    ['an unknown route', '/api/v1/nope', true],
    ['health', '/readyz', false],
    ['the docs page', '/docs', false],
  ])('is made for %s, unique per request', async (_what, url, keyed) => {
    const key = keyed ? t.keys.pro : undefined;
    const [a, b] = await Promise.all([t.get(url, key), t.get(url, key)]);
    expect(a.headers['x-request-id']).toMatch(GENERATED_ID);
    expect(b.headers['x-request-id']).toMatch(GENERATED_ID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it.each(['gw-42', 'f3c1d2e4-0000-4000-8000-123456789abc', 'trace:1.2_x', 'a'.repeat(128)])(
    'echoes a well-formed id from the client (%s)',
    async (id) => {
      const res = await t.get('/api/v1/games', t.keys.pro, { 'x-request-id': id });
      expect(res.headers['x-request-id']).toBe(id);
    },
  );

  it.each(['', 'has space', 'a'.repeat(129), 'new\u001b[2Jline', '<script>'])(
    'replaces a malformed id from the client (%j)',
    async (id) => {
      const res = await t.get('/api/v1/games', t.keys.pro, { 'x-request-id': id });
      expect(res.headers['x-request-id']).toMatch(GENERATED_ID);
    },
  );

  it('is set on Fastify refusals made before routing', async () => {
    const res = await t.get('/api/v1/games/%E0%A4%A', t.keys.pro);
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-request-id']).toMatch(GENERATED_ID);
  });
});
