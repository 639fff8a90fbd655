/** /openapi.json and the /docs page, loaded in real headless Chromium with no network beyond loopback. */

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_TAGS, ERROR_STATUS } from '@propsfeed/contract';
import { buildOpenApi } from '@propsfeed/docs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { launchChromium } from '../helpers/chromium';

let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  t = await buildTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t.close();
});

type Operations = Record<
  string,
  Record<
    string,
    {
      operationId?: string;
      tags?: string[];
      responses?: Record<string, { content: Record<string, { example?: { games: { id: string }[] } }> }>;
    }
  >
>;

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
    // Each operation is shown once, under the heading of its tag.
    const shown = await page.$$eval('.opblock', (blocks) =>
      blocks.map((b) => {
        const method = b.querySelector('.opblock-summary-method')?.textContent?.trim().toLowerCase();
        const path = b.querySelector('.opblock-summary-path')?.getAttribute('data-path');
        // Webhook events are in a section of their own, after the tagged operations.
        const tag =
          b.closest('.opblock-tag-section')?.querySelector('.opblock-tag')?.getAttribute('data-tag') ??
          (b.closest('.webhooks') ? 'webhooks' : undefined);
        return `${tag}: ${method} ${path}`;
      }),
    );
    const doc = buildOpenApi() as unknown as { paths: Operations; webhooks: Operations };
    const { paths } = doc;
    const expected = [
      ...Object.entries(paths).flatMap(([path, ops]) =>
        Object.entries(ops).map(([m, op]) => `${op.tags?.[0]}: ${m} ${path}`),
      ),
      ...Object.keys(doc.webhooks).map((type) => `webhooks: post ${type}`),
    ];
    expect(expected.length).toBeGreaterThanOrEqual(10);
    expect(shown.sort()).toEqual(expected.sort());
    expect(shown).toContain('Games and props: get /api/v1/games');
    const tags = await page.$$eval('.opblock-tag', (hs) => hs.map((h) => h.getAttribute('data-tag')));
    expect(tags).toEqual(Object.keys(API_TAGS));
    // The error table, after the routes: every code with its status.
    const errorRows = await page.$$eval('.propsfeed-errors table tr', (rows) =>
      rows.map((r) =>
        Array.from(r.querySelectorAll('td'), (td) => td.textContent?.trim())
          .slice(0, 2)
          .join(' '),
      ),
    );
    expect(errorRows).toEqual(expect.arrayContaining(['rate_limited 429', 'route_not_in_tier 403']));
    expect(errorRows.filter(Boolean)).toHaveLength(Object.keys(ERROR_STATUS).length);
    expect(await page.title()).toContain('propsfeed');

    // An operation opened shows its example request (the parameter's value) and the recorded answer.
    const games = page.locator('.opblock', { has: page.locator('[data-path="/api/v1/games"]') });
    await games.locator('.opblock-summary').first().click();
    const answer = games.locator('.responses-wrapper .highlight-code').first();
    await answer.waitFor({ timeout: 10_000 });
    const firstGame = paths['/api/v1/games']?.get?.responses?.['200']?.content['application/json']?.example?.games[0];
    expect(firstGame?.id).toMatch(/^pp_/);
    expect(await answer.textContent()).toContain(`"id": "${firstGame?.id}"`);
    const scan = page.locator('.opblock', { has: page.locator('[data-path="/api/v1/props"]') });
    await scan.locator('.opblock-summary').first().click();
    const filled = await scan
      .locator('.parameters')
      .evaluate((table) => Array.from(table.querySelectorAll('input, select'), (el) => (el as HTMLInputElement).value));
    // state, sort and minBooks have no example: they stay at their empty defaults.
    expect(filled).toEqual(['nba', 'points', '3', '', '', '']);
    expect(foreign).toEqual([]);
    expect(failed).toEqual([]);
    expect(blocked).toEqual([]);
    await page.close();
  });

  it('shows how to authorize and the routes on the first screen of a 1280×900 window, the errors after the routes', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    const shot = await page.screenshot({ path: join(tmpdir(), `propsfeed-docs-first-screen-${process.pid}.png`) });
    // The PNG's own header: the first screen, 1280 by 900.
    expect([shot.readUInt32BE(16), shot.readUInt32BE(20)]).toEqual([1280, 900]);
    const seen = await page.evaluate(() => {
      const box = (selector: string) => document.querySelector(selector)?.getBoundingClientRect();
      const routes = Array.from(document.querySelectorAll('.opblock-tag-section .opblock'), (b) =>
        b.getBoundingClientRect(),
      );
      const header = Array.from(document.querySelectorAll('.propsfeed-errors thead th'), (th) => ({
        text: th.textContent,
        padding: Number.parseFloat(getComputedStyle(th).paddingRight),
      }));
      return {
        authorize: box('.btn.authorize'),
        intro: document.querySelector('.info .description')?.textContent ?? '',
        firstRoute: routes[0],
        lastRoute: routes.at(-1),
        errors: box('.propsfeed-errors'),
        header,
      };
    });
    expect(seen.authorize?.bottom).toBeGreaterThan(0);
    expect(seen.authorize?.bottom).toBeLessThanOrEqual(900);
    expect(seen.firstRoute?.bottom).toBeLessThanOrEqual(900);
    // The introduction says how to authorize; the error table is below every route, its header's words apart.
    expect(seen.intro).toContain('Authorize with an API key');
    expect(seen.errors?.top).toBeGreaterThan(seen.lastRoute?.bottom ?? Number.POSITIVE_INFINITY);
    expect(seen.header.map((h) => h.text)).toEqual(['error', 'status', 'meaning']);
    for (const h of seen.header.slice(0, -1)) expect(h.padding).toBeGreaterThan(0);
    await page.close();
  });

  it('sends security headers with the page and its assets', async () => {
    for (const url of ['/docs', '/docs/init.js', '/docs/page.css', '/docs/assets/swagger-ui.css']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
