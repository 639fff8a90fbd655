import { describe, expect, it } from 'vitest';
import { backoffDelayMs, retryDecision } from '../src/retry';

const base = { method: 'GET', retriesSoFar: 0, maxRetries: 2, random: () => 0.5 } as const;

describe('retryDecision', () => {
  it('retries connection failures, 429 and 5xx on a GET', () => {
    expect(retryDecision({ ...base, outcome: { kind: 'connection' } })).toEqual({ retry: true, delayMs: 375 });
    expect(retryDecision({ ...base, outcome: { kind: 'response', status: 429 } }).retry).toBe(true);
    expect(retryDecision({ ...base, outcome: { kind: 'response', status: 500 } }).retry).toBe(true);
    expect(retryDecision({ ...base, outcome: { kind: 'response', status: 503 } }).retry).toBe(true);
  });

  it('does not retry other 4xx answers', () => {
    for (const status of [400, 401, 403, 404, 409]) {
      expect(retryDecision({ ...base, outcome: { kind: 'response', status } })).toEqual({ retry: false });
    }
  });

  it('never retries anything but a GET', () => {
    expect(retryDecision({ ...base, method: 'POST', outcome: { kind: 'connection' } })).toEqual({ retry: false });
    expect(retryDecision({ ...base, method: 'post', outcome: { kind: 'response', status: 503 } })).toEqual({
      retry: false,
    });
  });

  it('stops after maxRetries', () => {
    expect(retryDecision({ ...base, retriesSoFar: 1, outcome: { kind: 'connection' } }).retry).toBe(true);
    expect(retryDecision({ ...base, retriesSoFar: 2, outcome: { kind: 'connection' } })).toEqual({ retry: false });
    expect(retryDecision({ ...base, maxRetries: 0, outcome: { kind: 'connection' } })).toEqual({ retry: false });
  });

  it('waits exactly Retry-After when the server sends it', () => {
    const outcome = { kind: 'response', status: 429, retryAfter: 7 } as const;
    expect(retryDecision({ ...base, outcome })).toEqual({ retry: true, delayMs: 7000 });
    expect(retryDecision({ ...base, outcome: { kind: 'response', status: 503, retryAfter: 0 } })).toEqual({
      retry: true,
      delayMs: 0,
    });
  });

  it('hands a long Retry-After (a spent daily quota) straight back', () => {
    const outcome = { kind: 'response', status: 429, retryAfter: 3600 } as const;
    expect(retryDecision({ ...base, outcome })).toEqual({ retry: false });
    expect(retryDecision({ ...base, outcome, maxRetryAfterSeconds: 7200 })).toEqual({
      retry: true,
      delayMs: 3_600_000,
    });
  });
});

describe('backoffDelayMs', () => {
  it('doubles each step, jittered between half and all of it, up to a ceiling', () => {
    expect(backoffDelayMs(0, () => 0)).toBe(250);
    expect(backoffDelayMs(0, () => 0.999999)).toBe(500);
    expect(backoffDelayMs(1, () => 0)).toBe(500);
    expect(backoffDelayMs(2, () => 0)).toBe(1000);
    expect(backoffDelayMs(10, () => 0.999999)).toBe(8000);
  });
});
