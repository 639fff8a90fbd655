/** /openapi.json (whose `servers` names the server it is served from), /llms.txt and the guides. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApi, GUIDES } from '@propsfeed/docs';
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

describe('/llms.txt and the guides it links', () => {
  it('is served as Markdown, linking this server and the guides it serves', async () => {
    const res = await t.inject({ method: 'GET', url: '/llms.txt', headers: { host: '127.0.0.1:8801' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(res.body).toMatch(/^# propsfeed\n\n> /);
    expect(res.body).toContain('[OpenAPI document](http://127.0.0.1:8801/openapi.json)');
    expect(res.body).toContain('[MCP endpoint](http://127.0.0.1:8801/mcp)');
    const guides = [...res.body.matchAll(/\]\((http:\/\/127\.0\.0\.1:8801\/guides\/[^)]+)\)/g)].map((m) => m[1] ?? '');
    expect(guides).toHaveLength(GUIDES.length);
    for (const url of guides) {
      const file = url.slice(url.lastIndexOf('/') + 1);
      const guide = await t.inject({ method: 'GET', url: new URL(url).pathname });
      expect(guide.statusCode, url).toBe(200);
      expect(guide.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(guide.body).toBe(readFileSync(fileURLToPath(new URL(`../../../docs/${file}`, import.meta.url)), 'utf8'));
    }
  });

  it('links relative to its origin for a host the server does not answer, and serves only the guides', async () => {
    const res = await t.inject({ method: 'GET', url: '/llms.txt', headers: { host: 'evil.example' } });
    expect(res.body).toContain('[OpenAPI document](/openapi.json)');
    expect(res.body).not.toContain('evil.example');
    for (const url of ['/guides/..%2fpackage.json', '/guides/README.md', '/guides/openapi.json']) {
      expect((await t.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});
