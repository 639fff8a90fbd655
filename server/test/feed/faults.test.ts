/**
 * Faults: each way a book fails leaves its last good slate on the board with a truthful
 * fetchedAt, counts it and logs it, lets the other book carry on, and recovers by itself.
 */
import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADAPTERS } from '../../src/books';
import { FeedCore } from '../../src/feed/core';
import { nextDelay, type PollerOptions, pollOnce, startPolling } from '../../src/feed/poller';
import { EMPTY_PRIZEPICKS, PP_BASE, prizePicksNba, UD_BASE, underdog } from './fixtures';

type Mode = 'ok' | 'timeout' | '500' | '503' | '403' | '426' | 'garbage' | 'wrong-shape';
let ppMode: Mode = 'ok';
let udOver = '-120';
let ppTatum = 27.5;
let ppRequests = 0;

function fault(mode: Mode): Promise<Response> | Response | undefined {
  if (mode === 'timeout') return delay(2_000).then(() => HttpResponse.json(EMPTY_PRIZEPICKS));
  if (mode === 'garbage') return new HttpResponse('<html>Just a moment...</html>', { status: 200 });
  if (mode === 'wrong-shape') return HttpResponse.json({ error: 'maintenance' });
  if (mode !== 'ok') return new HttpResponse('nope', { status: Number(mode) });
  return undefined;
}

const server = setupServer(
  http.get(`${PP_BASE}/projections`, ({ request }) => {
    ppRequests++;
    const failed = fault(ppMode);
    if (failed) return failed;
    const nba = new URL(request.url).searchParams.get('league_id') === '7';
    return HttpResponse.json(nba ? prizePicksNba(ppTatum) : EMPTY_PRIZEPICKS);
  }),
  http.get(`${UD_BASE}/v1/over_under_lines`, () => HttpResponse.json(underdog(udOver))),
);

let clock = 0;
const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
let core: FeedCore;
let opts: PollerOptions;
const pp = ADAPTERS.prizepicks;
const ud = ADAPTERS.underdog;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  ppMode = 'ok';
  udOver = '-120';
  ppTatum = 27.5;
  clock = 1_000_000;
  logger.warn.mockClear();
  core = new FeedCore({ books: ['prizepicks', 'underdog'], logger, retainMs: 3_600_000, now: () => clock });
  opts = { core, books: [], pollMs: 1_000, timeoutMs: 150, maxBackoffMs: 60_000, now: () => clock };
});

const tatum = () =>
  core
    .current()
    .gameById.get('pp_9001')
    ?.props.find((p) => p.stat === 'points');

describe.each(['timeout', '500', '503', '403', '426', 'garbage', 'wrong-shape'] as const)('PrizePicks %s', (mode) => {
  it('keeps the last good slate, counts and logs the failure, lets Underdog carry on, then recovers', async () => {
    await pollOnce(opts, pp, PP_BASE);
    await pollOnce(opts, ud, UD_BASE);
    const goodAt = clock;
    expect(tatum()?.books.map((b) => b.line)).toEqual([27.5, 27.5]);

    clock += 10_000;
    ppMode = mode;
    ppTatum = 28.5;
    await pollOnce(opts, pp, PP_BASE);
    const [ppHealth] = core.health();
    expect(ppHealth).toMatchObject({ fetchedAt: goodAt, lastAttemptAt: clock, errorCount: 1, consecutiveFailures: 1 });
    const expected = {
      timeout: 'timeout',
      500: 'HTTP 500',
      503: 'HTTP 503',
      403: 'HTTP 403',
      426: 'HTTP 426',
      garbage: 'not JSON',
      'wrong-shape': 'no data[]',
    }[mode];
    expect(ppHealth?.lastError).toContain(expected);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ book: 'prizepicks', consecutiveFailures: 1 }),
      expect.stringContaining('keeping its last good slate'),
    );
    // PrizePicks' line is still on the board; Underdog's new price gets through.
    udOver = '-140';
    await pollOnce(opts, ud, UD_BASE);
    expect(tatum()?.books.map((b) => [b.source, b.line, b.overOdds])).toEqual([
      ['prizepicks', 27.5, undefined],
      ['underdog', 27.5, -140],
    ]);
    expect(core.health()[1]).toMatchObject({ fetchedAt: clock, errorCount: 0 });

    clock += 10_000;
    ppMode = 'ok';
    await pollOnce(opts, pp, PP_BASE);
    expect(core.health()[0]).toMatchObject({
      fetchedAt: clock,
      errorCount: 1,
      consecutiveFailures: 0,
      lastError: null,
    });
    expect(tatum()?.books.map((b) => b.line)).toEqual([28.5, 27.5]);
  });
});

describe('backoff', () => {
  it('waits the interval ±10 % while healthy and doubles per consecutive failure up to a cap', () => {
    expect(nextDelay(1_000, 0, 60_000, 0.5)).toBe(1_000);
    expect(nextDelay(1_000, 0, 60_000, 0)).toBe(900);
    expect(nextDelay(1_000, 0, 60_000, 1)).toBe(1_100);
    expect(nextDelay(1_000, 1, 60_000, 0.5)).toBe(2_000);
    expect(nextDelay(1_000, 3, 60_000, 0.5)).toBe(8_000);
    expect(nextDelay(1_000, 10, 60_000, 0.5)).toBe(60_000);
  });

  it('the polling loop recovers by itself once the book answers again', async () => {
    ppMode = '503';
    const poller = startPolling({ ...opts, books: [{ adapter: pp, baseUrl: PP_BASE }], pollMs: 5, maxBackoffMs: 20 });
    try {
      await vi.waitFor(() => expect(core.health()[0]?.consecutiveFailures).toBeGreaterThanOrEqual(2));
      expect(core.current().games).toHaveLength(0);
      ppMode = 'ok';
      await vi.waitFor(() => expect(core.health()[0]?.consecutiveFailures).toBe(0), { timeout: 5_000 });
      expect(tatum()?.line).toBe(27.5);
    } finally {
      await poller.stop();
    }
  });
});

describe('stopping', () => {
  it('aborts a request in flight without counting it as the book failing', async () => {
    ppMode = 'timeout';
    ppRequests = 0;
    const poller = startPolling({ ...opts, books: [{ adapter: pp, baseUrl: PP_BASE }], timeoutMs: 60_000 });
    await vi.waitFor(() => expect(ppRequests).toBe(1));
    await poller.stop();
    expect(core.health()[0]).toMatchObject({ errorCount: 0, lastAttemptAt: null, fetchedAt: null });
    expect(ppRequests).toBe(1);
  });
});

describe('malformed items', () => {
  it('are skipped and counted, never failing the cycle', async () => {
    await pollOnce(opts, pp, PP_BASE);
    await pollOnce(opts, pp, PP_BASE);
    expect(core.health()[0]).toMatchObject({ skippedItems: 2, errorCount: 0, unmappedStats: { 'nba:Dunks': 2 } });
  });
});

describe('boards', () => {
  it('are made only when something changed, and at() returns the board as it stood', async () => {
    await pollOnce(opts, pp, PP_BASE);
    const first = core.current();
    clock += 5_000;
    await pollOnce(opts, pp, PP_BASE);
    expect(core.current()).toBe(first);
    clock += 5_000;
    ppTatum = 26.5;
    await pollOnce(opts, pp, PP_BASE);
    const second = core.current();
    expect(second.version).toBe(first.version + 1);
    expect(second.fetchedAt).toBe(clock);
    expect(core.at(clock - 1)).toBe(first);
    expect(core.at(clock - 1).fetchedAt).toBeLessThanOrEqual(clock - 1);
    expect(core.at(clock)).toBe(second);
    expect(core.at(first.fetchedAt - 1).version).toBe(0);
    // The quote's updatedAt moved with the line.
    expect(tatum()?.books[0]?.updatedAt).toBe(clock);
  });
});
