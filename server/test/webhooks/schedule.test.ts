/** The retry policy: 2xx succeeds, 410 is gone, anything else waits the spec's schedule (±20%), never less than Retry-After. */
import { WEBHOOK_RETRY_SCHEDULE_SECONDS } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter, verdictOf } from '../../src/webhooks/schedule';

const NOW = Date.UTC(2026, 10, 22, 1);

describe('verdictOf', () => {
  it('succeeds on any 2xx and is gone on 410', () => {
    for (const status of [200, 201, 204, 299])
      expect(verdictOf({ status }, 1, NOW, 0.5)).toEqual({ kind: 'succeeded' });
    expect(verdictOf({ status: 410 }, 3, NOW, 0.5)).toEqual({ kind: 'gone' });
  });

  it('retries on the schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then fails', () => {
    expect(WEBHOOK_RETRY_SCHEDULE_SECONDS).toEqual([0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    const waits: number[] = [];
    for (let attempts = 1; attempts < 10; attempts++) {
      const v = verdictOf({ status: 500 }, attempts, NOW, 0.5);
      if (v.kind !== 'retry') throw new Error(`attempt ${attempts}: ${v.kind}`);
      waits.push((v.atMs - NOW) / 1000);
    }
    expect(waits).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    expect(verdictOf({ status: 500 }, 10, NOW, 0.5)).toEqual({ kind: 'failed' });
    expect(verdictOf({ status: null }, 10, NOW, 0.5)).toEqual({ kind: 'failed' });
  });

  it('jitters each wait by at most 20% either way', () => {
    const at = (random: number) => (verdictOf({ status: 503 }, 2, NOW, random) as { atMs: number }).atMs - NOW;
    expect(at(0)).toBe(240_000);
    expect(at(0.999999)).toBeCloseTo(360_000, -1);
    expect(at(0.25)).toBe(270_000);
  });

  it('never retries before Retry-After, held to a day at most', () => {
    const v = (retryAfterSeconds: number) =>
      (verdictOf({ status: 429, retryAfterSeconds }, 1, NOW, 0.5) as { atMs: number }).atMs - NOW;
    expect(v(60)).toBe(60_000);
    expect(v(2)).toBe(5_000);
    expect(v(10 * 86_400)).toBe(86_400_000);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates; ignores what it cannot read', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120);
    expect(parseRetryAfter(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });
});
