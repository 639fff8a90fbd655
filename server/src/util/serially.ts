/**
 * Steps that must not overlap (taking and losing a lead, a store's turns, one key's
 * registrations) run one after another: each starts once the one before has settled. A step's
 * failure is its caller's to handle and does not stop the steps after it.
 */

/** A queue of steps: `run(step)` is the step's own result, once every step queued before has settled. */
export function serially(): <T>(step: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (step) => {
    const run = tail.then(step);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** One queue per key (a key's steps in turn, other keys' alongside); a key's queue is forgotten once empty. */
export function seriallyByKey(): <T>(key: string, step: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, step) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(step);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
