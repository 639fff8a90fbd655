/** The fetcher's retry loop with sleep and jitter injected, so waits are checked without waiting. */
import type { ApiFetcherArgs } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { ConnectionError } from '../src/errors';
import { createFetcher } from '../src/transport';

const args = { path: 'http://api.test/api/v1/me', method: 'GET', headers: {}, body: undefined } as ApiFetcherArgs;

function sequence(answers: Array<number | 'refused'>) {
  let calls = 0;
  const fetch = async () => {
    const next = answers[calls++];
    if (next === 'refused') throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    return new Response(JSON.stringify({ error: 'x', message: 'y' }), {
      status: next,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, count: () => calls };
}

describe('createFetcher', () => {
  it('backs off exponentially between retries of 5xx and connection failures', async () => {
    const waits: number[] = [];
    const { fetch, count } = sequence(['refused', 503, 200]);
    const fetcher = createFetcher({
      fetch,
      timeoutMs: 1000,
      maxRetries: 2,
      sleep: async (ms) => void waits.push(ms),
      random: () => 0,
    });
    expect((await fetcher(args)).status).toBe(200);
    expect(waits).toEqual([250, 500]);
    expect(count()).toBe(3);
  });

  it('returns the last error answer when retries run out', async () => {
    const { fetch, count } = sequence([500, 500, 500, 500]);
    const fetcher = createFetcher({ fetch, timeoutMs: 1000, maxRetries: 2, sleep: async () => {} });
    expect((await fetcher(args)).status).toBe(500);
    expect(count()).toBe(3);
  });

  it('rethrows the connection error when retries run out', async () => {
    const { fetch } = sequence(['refused', 'refused']);
    const fetcher = createFetcher({ fetch, timeoutMs: 1000, maxRetries: 1, sleep: async () => {} });
    await expect(fetcher(args)).rejects.toBeInstanceOf(ConnectionError);
  });

  it('does not retry a 4xx other than 429', async () => {
    const { fetch, count } = sequence([404, 200]);
    const fetcher = createFetcher({ fetch, timeoutMs: 1000, maxRetries: 2, sleep: async () => {} });
    expect((await fetcher(args)).status).toBe(404);
    expect(count()).toBe(1);
  });
});
