/**
 * DNS rebinding as it arrives: real headless Chromium told that evil.example.com resolves to
 * 127.0.0.1 (what the attacker's DNS does once its page has loaded), so a page of that name
 * talks to a local propsfeed as its own origin. /mcp must refuse it; a page on loopback works.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app';
import { launchChromium } from '../helpers/chromium';

let t: TestApp;
let port: number;
let browser: Browser;

beforeAll(async () => {
  t = await buildTestApp();
  port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  browser = await launchChromium([
    '--host-resolver-rules=MAP evil.example.com 127.0.0.1, MAP *.evil.example.com 127.0.0.1',
  ]);
});
afterAll(async () => {
  await browser?.close();
  await t.close();
});

/** Loads a page of the server's at `origin`, then has it POST a tools/list to `target` (the key in hand). */
async function fromPage(origin: string, target: string, key: string): Promise<{ status: number; text: string }> {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/healthz`);
    return await page.evaluate(
      async ({ target, key }) => {
        const res = await fetch(target, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${key}`,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        return { status: res.status, text: await res.text() };
      },
      { target, key },
    );
  } finally {
    await page.close();
  }
}

describe('a web page driving a local props serve through the browser', () => {
  it('same-origin after rebinding (Host and Origin evil.example.com): 403 with a sentence', async () => {
    const evil = `http://evil.example.com:${port}`;
    const res = await fromPage(evil, `${evil}/mcp`, t.keys.free);
    expect(res.status).toBe(403);
    const body = JSON.parse(res.text);
    expect(body.error).toMatchObject({ data: { error: 'host_not_allowed' } });
    expect(body.error.message).toContain(`Host "evil.example.com:${port}" is not allowed`);
  });

  it('cross-origin from evil.example.com to 127.0.0.1: 403 naming the Origin', async () => {
    const res = await fromPage(`http://www.evil.example.com:${port}`, `http://127.0.0.1:${port}/mcp`, t.keys.free);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text).error.message).toContain(`Origin "http://www.evil.example.com:${port}" is not allowed`);
  });

  it('a page on loopback is answered', async () => {
    const local = `http://127.0.0.1:${port}`;
    const res = await fromPage(local, `${local}/mcp`, t.keys.free);
    expect(res.status).toBe(200);
    expect(res.text).toContain('"list_sports"');
  });
});
