/** GET / and /assets/: the built page from memory, under its CSP, hashed files cached for a year. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostPolicy } from '../../src/net/hostGuard';
import { PAGE_CSP, readWebBundle, registerWeb } from '../../src/web';
import { buildTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the board page', () => {
  it('answers / with the built page under the strict CSP, never cached without asking', async () => {
    const res = await t.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(PAGE_CSP).toContain("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'");
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Only its own hashed files, no inline script or style.
    const srcs = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(srcs.filter((s) => !s?.startsWith('data:'))).toEqual([
      expect.stringMatching(/^\/assets\/app-[A-Z0-9]{8}\.css$/),
      expect.stringMatching(/^\/assets\/app-[A-Z0-9]{8}\.js$/),
      '/docs',
    ]);
    expect(res.body).not.toMatch(/<script>|<style|style="/);
  });

  it('serves each hashed file with a year-long immutable cache, and nothing else under /assets', async () => {
    const page = (await t.inject({ method: 'GET', url: '/' })).body;
    for (const [, path] of page.matchAll(/"(\/assets\/[^"]+)"/g)) {
      const res = await t.inject({ method: 'GET', url: path ?? '' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    }
    const map = await t.inject({ method: 'GET', url: `${/"(\/assets\/app-[^"]+\.js)"/.exec(page)?.[1]}.map` });
    expect(map.statusCode).toBe(404);
    const missing = await t.inject({ method: 'GET', url: '/assets/app-NOTTHERE.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'not_found' });
  });

  it('refuses the page under a host name re-pointed at loopback (DNS rebinding)', async () => {
    const res = await t.inject({ method: 'GET', url: '/', headers: { host: 'evil.example:8787' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'host_not_allowed' });
  });

  it('says how to build the page when it is not built', async () => {
    const app = Fastify();
    await registerWeb(app, hostPolicy(), readWebBundle([join(tmpdir(), 'propsfeed-no-such-dir/')]));
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/not built: run `pnpm install`/);
    await app.close();
  });

  it('reads a bundle from the first place that has one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'propsfeed-web-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    writeFileSync(join(dir, 'assets', 'app-ABCDEFGH.js'), 'x');
    writeFileSync(join(dir, 'assets', 'app-ABCDEFGH.js.map'), '{}');
    const bundle = readWebBundle([join(tmpdir(), 'propsfeed-no-such-dir/'), `${dir}/`]);
    expect(bundle?.page.toString()).toBe('<!doctype html>');
    expect([...(bundle?.assets.keys() ?? [])]).toEqual(['app-ABCDEFGH.js']);
    rmSync(dir, { recursive: true, force: true });
  });
});
