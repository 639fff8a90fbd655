/**
 * docs/examples.json, the API reference's response examples, is what the seeded simulator
 * answers to each route's example request today: a change to the answers or the examples
 * fails here until `pnpm docs:openapi` records them again.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { captureExamples, EXAMPLE_KEY, requestUrl } from './captureExamples';

const recorded = JSON.parse(readFileSync(new URL('../../../docs/examples.json', import.meta.url), 'utf8'));

describe('docs/examples.json', () => {
  // It replays the simulated day (about 14 s alone): under a loaded CI the suite's 30 s ran out.
  it('is the seeded simulator’s answer to every example request (run `npx -y pnpm@10 -s docs:openapi` when this fails)', async () => {
    expect(await captureExamples()).toEqual(recorded);
  }, 120_000);

  it('shows the example key instead of the keys the capture issued', () => {
    expect(EXAMPLE_KEY).toMatch(/^pf_[0-9A-Za-z]{32}$/);
    expect(recorded.createKey.body.key).toBe(EXAMPLE_KEY);
    expect(recorded.me.body.keyPrefix).toBe(EXAMPLE_KEY.slice(0, 8));
  });

  it('builds request addresses from the example’s path and query values', () => {
    expect(requestUrl('/api/v1/games/:eventId/props', { params: { eventId: 'pp_1' }, query: { stats: 'a,b' } })).toBe(
      '/api/v1/games/pp_1/props?stats=a%2Cb',
    );
    expect(() => requestUrl('/api/v1/games/:eventId/props', {})).toThrow("no value for the path parameter 'eventId'");
  });
});
