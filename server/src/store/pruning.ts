/**
 * Pruning by age, off the request path: a timer that runs a store's prune while this process
 * is the one writing it (the feed's; on the shared engines the ingest leader), never two runs
 * at once. The prune itself deletes in small slices, a turn of the event loop between them.
 * Used by the stream's event log and by line history.
 */
export interface PruningOptions {
  /** Whether this process writes (and so prunes) the store. */
  writes: () => boolean;
  /** How often: default every minute. */
  everyMs?: number;
  onError?: (err: unknown) => void;
}

/** Runs `prune` every `everyMs` while `writes()`; returns its stop. */
export function schedulePruning(prune: () => Promise<unknown>, opts: PruningOptions): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running || !opts.writes()) return;
    running = true;
    prune()
      .catch((err) => opts.onError?.(err))
      .finally(() => {
        running = false;
      });
  }, opts.everyMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
