/**
 * The board page in Debian's Chromium against `props serve` at the busiest simulated hour
 * (PROPS_SIM_CLOCK=2026-11-22T01:30:00Z): key entry, the board filling from the stream, a line
 * changing in place, pause and resume with no event lost, a prop's chart, the record's diagram,
 * a free key's locked sports and delay banner, a wrong key's message. Every page is checked for
 * CSP violations and by axe (no serious or critical issue).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { PropsFeed, type ScanRow, type StreamMessage } from '@propsfeed/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium } from '../../server/test/helpers/chromium';
import { type ServeChild, startServeChild } from '../../server/test/helpers/serveChild';
import { BOOKS, num } from '../src/format';

/**
 * The busiest simulated hour (four NBA games live, five more to come), 70 s before the live
 * games' next two-minute step (time for the server to start and the page to load): the books
 * move their live lines at each step, so a line
 * changes while the tests watch.
 */
const SIM_AT = '2026-11-22T01:30:50.000Z';
const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-web-'));
let server: ServeChild;
let browser: Browser;
let keys: ReturnType<ServeChild['demoKeys']>;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServeChild({ PROPS_DATA_DIR: dataDir }, true, { clockAt: SIM_AT }),
    launchChromium(),
  ]);
  keys = server.demoKeys();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Opened {
  context: BrowserContext;
  page: Page;
  /** CSP violations the page reported (securitypolicyviolation events and "Refused to" console lines). */
  refused: string[];
  /** Every address the page requested. */
  urls: string[];
  /** Errors thrown in the page. */
  errors: string[];
}

async function open(): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
  const page = await context.newPage();
  const refused: string[] = [];
  const urls: string[] = [];
  const errors: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => refused.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportViolation(t: string): void }).reportViolation(
        `${e.violatedDirective} ${e.blockedURI}`,
      ),
    );
  });
  page.on('console', (m) => {
    if (m.text().includes('Refused to')) refused.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => urls.push(r.url()));
  await page.goto(`${server.address}/`);
  return { context, page, refused, urls, errors };
}

async function signIn(page: Page, key: string | undefined, remember = false): Promise<void> {
  await page.fill('#api-key', key ?? '');
  if (remember) await page.check('.remember input');
  await page.click('button[type=submit]');
}

/** No serious or critical accessibility issue on the page as it stands. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  // axe walks every node: on a board of ~900 rows it takes minutes, so the board is checked
  // paused and narrowed to one stat (the same components, a tenth of the rows).
  if ((await page.locator('button.pause[aria-pressed=false]').count()) > 0) await page.click('button.pause');
  if ((await page.locator('.filters select').count()) > 0)
    await page.selectOption('.filters select >> nth=0', 'points');
  const started = Date.now();
  const result = await new AxeBuilder({ page }).analyze();
  console.log(`axe on the ${what}: ${Date.now() - started} ms`);
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${what}: ${v.id} (${v.impact}): ${v.nodes.length} nodes, e.g. ${v.nodes[0]?.html.slice(0, 160)}`);
  expect(serious).toEqual([]);
}

async function expectClean(o: Opened): Promise<void> {
  expect(o.refused).toEqual([]);
  expect(o.errors).toEqual([]);
  await o.context.close();
}

const ROWS = 'table.board tbody tr[data-key]';

// Each test opens its own page against the one server; a busy machine makes some slow.
vi.setConfig({ testTimeout: 60_000 });

/** The page's last applied event id, from the status line a pause writes. */
async function pause(page: Page): Promise<string> {
  await page.click('button.pause');
  const status = page.locator('[role=status]');
  await expect.poll(() => status.textContent(), { timeout: 5_000 }).toMatch(/paused after event \d/);
  return /after event (\S+)\./.exec((await status.textContent()) ?? '')?.[1] ?? '';
}

/** Each book's cell text of a row, as the page shows it. */
const bookCells = (page: Page, key: string) =>
  page
    .locator(`${ROWS}[data-key="${key.replaceAll('"', '\\"')}"] td.book`)
    .evaluateAll((tds) => tds.map((td) => td.querySelector('.line')?.textContent ?? '—'));

/** What a book's cell shows for a row: its line first. */
function expectedCells(row: ScanRow): string[] {
  return BOOKS.map((book) => {
    const line = row.books?.find((b) => b.source === book);
    return line ? num(line.line) : '—';
  });
}

describe('the board page', () => {
  it('refuses a wrong key with a message, and leaves it out of storage', async () => {
    const o = await open();
    await signIn(o.page, `pf_${'x'.repeat(32)}`);
    const alert = o.page.locator('[role=alert]');
    await expect.poll(() => alert.textContent()).toMatch(/That key was not accepted/);
    expect(await o.page.evaluate(() => [sessionStorage.length, localStorage.length])).toEqual([0, 0]);
    await expectAccessible(o.page, 'key form');
    await expectClean(o);
  });

  it('takes a key, fills the board from the stream, changes a line in place, and sorts', {
    timeout: 180_000,
  }, async () => {
    const o = await open();
    const { page } = o;
    await signIn(page, keys.sharp);
    await page.waitForSelector(ROWS, { timeout: 20_000 });
    // The key is kept for this tab only, and never travels in an address.
    expect(await page.evaluate(() => [sessionStorage.length, localStorage.length])).toEqual([1, 0]);
    // Reopened, the page finds the key and draws the board: how long after navigation.
    await page.reload();
    await page.waitForSelector(ROWS, { timeout: 20_000 });
    const firstRender = await page.evaluate(() => performance.getEntriesByName('board-rendered')[0]?.startTime);
    console.log(`first render of the board with data: ${Math.round(firstRender ?? Number.NaN)} ms after navigation`);
    expect(firstRender).toBeGreaterThan(0);
    const rows = await page.locator(ROWS).count();
    expect(rows).toBeGreaterThan(100);
    // Live games first, each game a row heading with its clock.
    expect(await page.locator('tr.game th').first().textContent()).toMatch(/live, Q\d \d+:\d\d/);

    // Every row now on the page is marked with its books' cells; a later change of a line or a price
    // shows in a marked row (the same element, not a new one), its changed cell highlighted.
    await page.$$eval(ROWS, (trs) => {
      for (const tr of trs) {
        const books = Array.from(tr.querySelectorAll('td.book'), (td) => td.textContent);
        (tr as HTMLElement & { seen?: string }).seen = JSON.stringify(books);
      }
    });
    const changed = await page.waitForFunction(
      (selector) =>
        Array.from(document.querySelectorAll(selector)).find((tr) => {
          const seen = (tr as HTMLElement & { seen?: string }).seen;
          const books = Array.from(tr.querySelectorAll('td.book'), (td) => td.textContent);
          return seen !== undefined && seen !== JSON.stringify(books);
        }),
      ROWS,
      // The simulated books move their live lines every two minutes of game time.
      { timeout: 130_000, polling: 250 },
    );
    expect(await changed.evaluate((tr) => tr?.querySelectorAll('td.book.changed').length ?? 0)).toBeGreaterThan(0);
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
    await expect.poll(() => page.locator('[role=status]').textContent(), { timeout: 10_000 }).toMatch(/moved|changed/);
    // No live region on the table; the status line is the only one.
    expect(await page.locator('table [aria-live], table[aria-live]').count()).toBe(0);

    // Sorted by edge: the header says so, and the first rows carry the largest edges.
    await page.click('th button:has-text("Edge")');
    expect(await page.locator('th:has(button:has-text("Edge"))').getAttribute('aria-sort')).toBe('descending');
    const edges = await page.locator(`${ROWS} td.edge .pos, ${ROWS} td.edge .neg`).allTextContents();
    const values = edges.slice(0, 20).map((t) => Number.parseFloat(t.replace('−', '-')));
    expect(values).toEqual([...values].sort((a, b) => b - a));

    if (process.env.PROPS_UPDATE_SCREENSHOT) {
      await page.click('th button:has-text("Game")');
      const shot = await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: 1300, height: 760 } });
      writeFileSync(fileURLToPath(new URL('../../docs/board.png', import.meta.url)), shot);
    }
    await expectAccessible(page, 'board');
    const key = keys.sharp ?? '';
    expect(o.urls.filter((u) => u.includes(key))).toEqual([]);
    await expectClean(o);
  });

  it('pauses, and resumes from the last event id with no event lost', { timeout: 150_000 }, async () => {
    const o = await open();
    const { page } = o;
    await signIn(page, keys.sharp);
    await page.waitForSelector(ROWS, { timeout: 20_000 });
    const resumes: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/stream')) resumes.push(r.headers()['last-event-id']);
    });
    const from = await pause(page);
    expect(await page.locator('button.pause').getAttribute('aria-pressed')).toBe('true');
    // The board moves on while the page is paused.
    await new Promise((r) => setTimeout(r, 2_500));
    await page.click('button.pause');
    await expect.poll(() => resumes).toEqual([from]);
    await new Promise((r) => setTimeout(r, 2_500));
    let to = await pause(page);
    // A book polls every 5 s; on a loaded machine (CI's Node 24 pass) no change may land in
    // 2.5 s: resume and wait again, a few times, before asking for an event past `from`.
    for (let tries = 0; to === from && tries < 6; tries++) {
      await page.click('button.pause');
      await new Promise((r) => setTimeout(r, 2_500));
      to = await pause(page);
    }
    expect(to).not.toBe(from);

    // The same events, read by the SDK from the same id: the page shows where each left its prop.
    const client = new PropsFeed({ apiKey: keys.sharp, baseUrl: server.address });
    const stop = new AbortController();
    const last = new Map<string, ScanRow | null>();
    let seen = 0;
    const timer = setTimeout(() => stop.abort(), 30_000);
    for await (const event of client.stream({
      sport: 'nba',
      lastEventId: from,
      signal: stop.signal,
    }) as AsyncIterable<StreamMessage>) {
      if (event.type === 'prop') last.set(`${event.row.eventId}|${event.row.player}|${event.row.stat}`, event.row);
      if (event.type === 'prop.removed') last.set(`${event.eventId}|${event.player}|${event.stat}`, null);
      if (event.type === 'snapshot') throw new Error('the resume was answered with a snapshot');
      seen++;
      if (event.id === to) stop.abort();
    }
    clearTimeout(timer);
    expect(last.size > 0 && seen > 0, `the events from ${from} to ${to} did not arrive in time`).toBe(true);
    expect(seen).toBeGreaterThan(0);
    expect(last.size).toBeGreaterThan(0);
    for (const [key, row] of last) {
      if (row === null) expect(await page.locator(`${ROWS}[data-key="${key}"]`).count()).toBe(0);
      else expect(await bookCells(page, key)).toEqual(expectedCells(row));
    }
    await expectClean(o);
  });

  it("draws a prop's line chart with one series per book, its games as bars and the chance's workings", async () => {
    const o = await open();
    const { page } = o;
    await signIn(page, keys.sharp);
    await page.waitForSelector(ROWS, { timeout: 20_000 });
    // A prop both books post.
    const row = page
      .locator(ROWS)
      .filter({ has: page.locator('td.book .prices') })
      .first();
    const key = (await row.getAttribute('data-key')) ?? '';
    const [eventId = '', player = '', stat = ''] = key.split('|');
    await row.locator('th a').click();
    await page.waitForSelector('#line-chart-caption');
    const plot = page.locator('figure:has(#line-chart-caption) .plot');
    await expect.poll(() => plot.getAttribute('data-series'), { timeout: 10_000 }).not.toBeNull();
    const history = await new PropsFeed({ apiKey: keys.sharp, baseUrl: server.address }).propHistory({
      eventId,
      player,
      stat,
    });
    const labels = await plot.locator('.u-legend .u-series th').allTextContents();
    const lineSeries = labels.filter((l) => / line$/.test(l.trim()));
    expect(lineSeries).toHaveLength(history.books.length);
    expect(lineSeries.length).toBeGreaterThanOrEqual(2);
    expect(labels.map((l) => l.trim())).toEqual(expect.arrayContaining(['Opening']));
    expect(await plot.locator('canvas[role=img]').count()).toBe(1);
    expect(await page.locator('#line-chart-caption').textContent()).toMatch(/opened at .* now /);
    await page.waitForSelector('#form-chart-caption');
    expect(await page.locator('#form-chart-caption').textContent()).toMatch(/^Last \d+ games/);
    expect(await page.locator('.workings li').first().textContent()).toMatch(/over \d+\.\d %, under/);
    await expectAccessible(page, 'prop page');
    await expectClean(o);
  });

  it("shows the record's reliability diagram with counts, and the key's page", async () => {
    const o = await open();
    const { page } = o;
    await signIn(page, keys.sharp);
    await page.waitForSelector(ROWS, { timeout: 20_000 });
    await page.click('nav a:has-text("Track record")');
    const plot = page.locator('figure:has(#reliability-caption) .plot');
    await expect.poll(() => plot.getAttribute('data-series'), { timeout: 10_000 }).toBe('3');
    const labels = (await plot.locator('.u-legend .u-series th').allTextContents()).map((l) => l.trim());
    expect(labels).toEqual(expect.arrayContaining(['propsfeed', 'Market (de-vigged)', 'Perfect calibration']));
    expect(await page.locator('#reliability-caption tbody tr').count()).toBe(10);
    expect(await page.locator('table.numbers').nth(1).textContent()).toMatch(/A coin \(always 50 %\).*0\.2500/);
    await expectAccessible(page, 'track record');
    await page.click('nav a:has-text("Key")');
    await page.waitForSelector('#key-title');
    expect(await page.locator('.facts').textContent()).toMatch(/sharp/);
    expect(await page.locator('main h2').textContent()).toBe('What the enterprise tier adds');
    await expectAccessible(page, 'key page');
    await expectClean(o);
  });

  it("shows a free key's locked sports with the tier that opens them, and the delay banner", async () => {
    const o = await open();
    const { page } = o;
    await signIn(page, keys.free, true);
    await page.waitForSelector(ROWS, { timeout: 20_000 });
    expect(await page.evaluate(() => [sessionStorage.length, localStorage.length])).toEqual([0, 1]);
    const sports = page.locator('nav.sports li');
    expect(await sports.filter({ has: page.locator('a') }).allTextContents()).toEqual(['NBA Basketball']);
    const locked = (await page.locator('nav.sports li.locked').allTextContents()).map((t) =>
      t.replace('🔒', '').trim(),
    );
    expect(locked).toEqual(expect.arrayContaining(['MLB Baseball (pro tier)', 'NFL Football (sharp tier)']));
    expect(await page.locator('.banner.delayed').textContent()).toMatch(/^Delayed 10 minutes/);
    await expectAccessible(page, 'free board');
    // The prop page of a free key: still delayed, and the pro parts say what opens them.
    await page.locator(`${ROWS} th a`).first().click();
    await page.waitForSelector('#prop-title');
    expect(await page.locator('.banner.delayed').textContent()).toMatch(/^Delayed 10 minutes/);
    await expect.poll(() => page.locator('.note').first().textContent(), { timeout: 10_000 }).toMatch(/pro/);
    await page.click('nav a:has-text("Key")');
    expect(await page.locator('main ul').textContent()).toMatch(/realtime lines \(no 10-minute delay\)/);
    await expectClean(o);
  });
});
