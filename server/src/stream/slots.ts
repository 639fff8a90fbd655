/**
 * Open streams per key, capped per tier (TierPolicy.maxStreams): a slot is reserved before
 * the request is counted and released when the stream ends, whatever ends it.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  /** Takes a slot for the key; a release function, or undefined when the key holds `max` already. */
  reserve(keyId: string, max: number): (() => void) | undefined {
    const held = this.open.get(keyId) ?? 0;
    if (held >= max) return undefined;
    this.open.set(keyId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.open.get(keyId) ?? 1) - 1;
      if (now > 0) this.open.set(keyId, now);
      else this.open.delete(keyId);
    };
  }

  held(keyId: string): number {
    return this.open.get(keyId) ?? 0;
  }
}
