import { afterEach, describe, expect, it, vi } from 'vitest';
import { schedulePruning } from '../../src/store/pruning';

describe('schedulePruning', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('prunes every interval while this process writes, never two runs at once', async () => {
    vi.useFakeTimers();
    let writes = false;
    let finish: (() => void) | undefined;
    const prune = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const stop = schedulePruning(prune, { writes: () => writes, everyMs: 1_000 });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(prune).not.toHaveBeenCalled();
    writes = true;
    await vi.advanceTimersByTimeAsync(3_000);
    // The first run has not finished: the next ticks wait for it.
    expect(prune).toHaveBeenCalledTimes(1);
    finish?.();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(prune).toHaveBeenCalledTimes(2);
    stop();
    finish?.();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(prune).toHaveBeenCalledTimes(2);
  });

  it('reports a failed run and runs again on the next tick', async () => {
    vi.useFakeTimers();
    const onError = vi.fn();
    const prune = vi.fn(() => Promise.reject(new Error('store down')));
    const stop = schedulePruning(prune, { writes: () => true, everyMs: 1_000, onError });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(prune).toHaveBeenCalledTimes(2);
    expect(onError).toHaveBeenCalledTimes(2);
    stop();
  });
});
