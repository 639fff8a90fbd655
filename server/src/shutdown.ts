/**
 * The runtime's one ordered stop: each service, as it starts, says how it stops; `close()` stops
 * them in reverse order, so every service stops before those it was started over (the hub
 * before the feed it follows, the limiter's usage flush before the store it writes to).
 */
export class Shutdown {
  private readonly stops: Array<() => unknown> = [];

  /** Runs `stop` at close, before the stops deferred earlier. */
  defer(stop: () => unknown): void {
    this.stops.push(stop);
  }

  /**
   * Stops everything deferred, newest first, each awaited. A stop that fails does not keep the
   * rest from running; the first failure is thrown once all have run.
   */
  async close(): Promise<void> {
    let failure: { err: unknown } | undefined;
    for (const stop of this.stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (err) {
        failure ??= { err };
      }
    }
    if (failure) throw failure.err;
  }
}
