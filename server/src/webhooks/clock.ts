/**
 * The clock webhooks run on: the time, and timers on that time. The server's is the real one;
 * a test speeds it up (or moves it by hand) to see a retry schedule of hours in seconds.
 */
export interface WebhookClock {
  now(): number;
  /** Calls `fn` once `ms` of this clock's time has passed; returns a cancel function. */
  after(ms: number, fn: () => void): () => void;
}

export function systemClock(now: () => number = Date.now): WebhookClock {
  return {
    now,
    after(ms, fn) {
      const timer = setTimeout(fn, Math.max(0, ms));
      timer.unref();
      return () => clearTimeout(timer);
    },
  };
}

/**
 * A clock running `speed` times faster than the real one from `origin` (epoch ms of both at
 * the start). Two processes given the same origin and speed agree on the time.
 */
export function spedClock(speed: number, origin: number = Date.now()): WebhookClock {
  return {
    now: () => origin + (Date.now() - origin) * speed,
    after(ms, fn) {
      const timer = setTimeout(fn, Math.max(0, ms / speed));
      timer.unref();
      return () => clearTimeout(timer);
    },
  };
}
