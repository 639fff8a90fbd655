/** A webhook clock a test moves by hand: timers fire as `advance` passes their time. */
import type { WebhookClock } from '../../src/webhooks/clock';

export interface ManualClock extends WebhookClock {
  /** Moves the time forward, firing the timers it passes (in time order). */
  advance(ms: number): void;
  set(ms: number): void;
}

export function manualClock(start: number): ManualClock {
  let now = start;
  let timers: { at: number; fn: () => void }[] = [];
  const fire = () => {
    const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at);
    timers = timers.filter((t) => t.at > now);
    for (const t of due) t.fn();
  };
  return {
    now: () => now,
    after(ms, fn) {
      const timer = { at: now + Math.max(0, ms), fn };
      timers.push(timer);
      if (ms <= 0) queueMicrotask(fire);
      return () => {
        timers = timers.filter((t) => t !== timer);
      };
    },
    advance(ms) {
      now += ms;
      fire();
    },
    set(ms) {
      now = ms;
      fire();
    },
  };
}
