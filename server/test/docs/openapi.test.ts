/** /openapi.json: the contract's document, whose `servers` names the server it is served from. */
import { buildOpenApi } from '@propsfeed/docs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const servedUrl = async (app: TestApp, headers: Record<string, string>) =>
  (await app.inject({ method: 'GET', url: '/openapi.json', headers })).json().servers[0].url;

describe('/openapi.json', () => {
  it("serves the contract's document, naming the server it is served from", async () => {
    const res = await t.inject({ method: 'GET', url: '/openapi.json', headers: { host: '127.0.0.1:8787' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      ...buildOpenApi(),
      servers: [{ url: 'http://127.0.0.1:8787', description: 'This server' }],
    });
    // The committed document keeps the default.
    expect(buildOpenApi().servers).toEqual([
      { url: 'http://127.0.0.1:8787', description: 'Local server (props serve)' },
    ]);
  });

  it('on a server at port 8801, servers[0].url is that server', async () => {
    const other = await buildTestApp();
    try {
      const address = await other.app.listen({ port: 8801, host: '127.0.0.1' });
      expect(address).toBe('http://127.0.0.1:8801');
      const doc = (await (await fetch(`${address}/openapi.json`)).json()) as { servers: { url: string }[] };
      expect(doc.servers[0]?.url).toBe('http://127.0.0.1:8801');
      const local = (await (await fetch('http://localhost:8801/openapi.json')).json()) as {
        servers: { url: string }[];
      };
      expect(local.servers[0]?.url).toBe('http://localhost:8801');
    } finally {
      await other.close();
    }
  });

  it("never writes a host the server does not answer into the page: `/` (the document's origin) instead", async () => {
    expect(await servedUrl(t, { host: 'evil.example:8787' })).toBe('/');
    expect(await servedUrl(t, { host: '127.0.0.1:8787"<script>' })).toBe('/');
    // Without PROPS_TRUST_PROXY, forwarded headers are anyone's and count for nothing.
    expect(
      await servedUrl(t, { host: '127.0.0.1:9000', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }),
    ).toBe('http://127.0.0.1:9000');
  });

  it('behind a trusted proxy, names the public host and scheme when PROPS_ALLOWED_HOSTS lists it', async () => {
    const proxied = await buildTestApp({ trustProxy: 1, allowedHosts: ['api.example.com'] });
    try {
      const forwarded = { host: '127.0.0.1:8787', 'x-forwarded-proto': 'https' };
      expect(await servedUrl(proxied, { ...forwarded, 'x-forwarded-host': 'api.example.com' })).toBe(
        'https://api.example.com',
      );
      expect(await servedUrl(proxied, { ...forwarded, 'x-forwarded-host': 'evil.example' })).toBe('/');
    } finally {
      await proxied.close();
    }
  });
});
