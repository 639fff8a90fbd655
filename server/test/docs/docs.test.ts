/** /openapi.json and the /docs page, loaded in real headless Chromium with no network beyond loopback. */
import { buildOpenApi } from '@propsfeed/docs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';

const CHROMIUM = '/usr/bin/chromium';
let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  t = await buildTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});
afterAll(async () => {
  await browser?.close();
  await t.close();
});

type Operations = Record<string, Record<string, { operationId?: string }>>;

describe('/openapi.json', () => {
  it("serves the contract's document", async () => {
    const res = await t.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(buildOpenApi());
  });
});

describe('/docs', () => {
  it('shows every operation, with every asset served locally', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1') return route.continue();
      foreign.push(url.href);
      return route.abort();
    });
    const failed: string[] = [];
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && m.text().includes('Content Security Policy')) blocked.push(m.text());
    });
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${base}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    const shown = await page.$$eval('.opblock', (blocks) =>
      blocks.map((b) => {
        const method = b.querySelector('.opblock-summary-method')?.textContent?.trim().toLowerCase();
        const path = b.querySelector('.opblock-summary-path')?.getAttribute('data-path');
        return `${method} ${path}`;
      }),
    );
    const paths = (buildOpenApi() as { paths: Operations }).paths;
    const expected = Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(expected.length).toBeGreaterThanOrEqual(10);
    expect(shown.sort()).toEqual(expected.sort());
    expect(await page.title()).toContain('propsfeed');
    expect(foreign).toEqual([]);
    expect(failed).toEqual([]);
    expect(blocked).toEqual([]);
    await page.close();
  });

  it('sends security headers with the page and its assets', async () => {
    for (const url of ['/docs', '/docs/init.js', '/docs/assets/swagger-ui.css']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
