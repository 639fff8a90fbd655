/** The embedded leadership: the webhook work starts at once, and when it fails to start (the store down) it is tried again until stopped. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alwaysLead } from '../../src/webhooks/delivery';

afterEach(() => {
  vi.useRealTimers();
});

describe('alwaysLead', () => {
  it('starts the work, retries a failed start after a pause, and stops it', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const errors: unknown[] = [];
    let failures = 1;
    const work = {
      start: async () => {
        calls.push('start');
        if (failures-- > 0) throw new Error('store down');
      },
      stop: async () => {
        calls.push('stop');
      },
    };
    const lead = alwaysLead(work, (err) => errors.push(err));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['start', 'stop']);
    expect(String(errors[0])).toContain('store down');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toEqual(['start', 'stop', 'start']);
    await lead.stop();
    expect(calls).toEqual(['start', 'stop', 'start', 'stop']);
  });
});
