/**
 * Keys in memory, so a request never waits on the store. The cache polls the store's key
 * signature, so a key created or revoked by another process (the CLI) counts within a second.
 */
import type { KeyRecord, KeyStore } from '../store/types';
import { constantTimeEqual, hashKey } from './format';

export const KEY_REFRESH_MS = 400;

function entryOf(record: KeyRecord): { record: KeyRecord; hash: string } {
  return { record, hash: Buffer.from(record.keyHash, 'hex').toString('latin1') };
}

export class KeyCache {
  /** By the hash's bytes as a latin1 string: a cheap map key, no hex encoding per request. */
  private byHash = new Map<string, { record: KeyRecord; hash: string }>();
  private signature = '';
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly store: KeyStore,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Loads every key, then keeps watching the store. */
  async start(refreshMs = KEY_REFRESH_MS): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => {
      this.refresh().catch(this.onError);
    }, refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The active record of this plain key, or undefined (unknown or revoked). */
  lookup(key: string): KeyRecord | undefined {
    const digest = hashKey(key);
    const entry = this.byHash.get(digest);
    // The map finds the entry; the comparison that decides is constant-time.
    if (!entry || !constantTimeEqual(entry.hash, digest) || entry.record.revokedAt !== null) return undefined;
    return entry.record;
  }

  /** Records a change made by this process at once, without waiting for the next poll. */
  put(record: KeyRecord): void {
    const entry = entryOf(record);
    this.byHash.set(entry.hash, entry);
  }

  async refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    this.refreshing = (async () => {
      const signature = await this.store.keysSignature();
      if (signature === this.signature) return;
      const keys = await this.store.listKeys();
      this.byHash = new Map(keys.map((k) => entryOf(k)).map((e) => [e.hash, e]));
      this.signature = signature;
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }
}
