/**
 * Keys in memory, so a request never waits on the store. The cache polls the store's key
 * signature, so a key created or revoked by another process (the CLI) counts within a second.
 */
import type { KeyRecord, KeyStore } from '../store/types';
import { constantTimeEqual, hashKey } from './format';

export const KEY_REFRESH_MS = 400;

/** Presented keys remembered after a verified lookup; beyond this the memory starts over. */
export const VERIFIED_KEYS_MAX = 10_000;

function entryOf(record: KeyRecord): { record: KeyRecord; hash: string } {
  return { record, hash: Buffer.from(record.keyHash, 'hex').toString('latin1') };
}

export class KeyCache {
  /** By the hash's bytes as a latin1 string: a cheap map key, no hex encoding per request. */
  private byHash = new Map<string, { record: KeyRecord; hash: string }>();
  /**
   * Presented key → the entry its hash matched, so a known key costs one Map lookup instead of
   * a SHA-256 per request. Only keys that matched are kept (a flood of wrong keys cannot grow
   * it), it lives in memory only (never logged or persisted), and it is emptied whenever the
   * keys change, so a revocation counts at once.
   */
  private verified = new Map<string, { record: KeyRecord; hash: string }>();
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
    const known = this.verified.get(key);
    if (known) return known.record.revokedAt === null ? known.record : undefined;
    const digest = hashKey(key);
    const entry = this.byHash.get(digest);
    // The map finds the entry; the comparison that decides is constant-time.
    if (!entry || !constantTimeEqual(entry.hash, digest)) return undefined;
    if (this.verified.size >= VERIFIED_KEYS_MAX) this.verified.clear();
    this.verified.set(key, entry);
    return entry.record.revokedAt === null ? entry.record : undefined;
  }

  /** Records a change made by this process at once, without waiting for the next poll. */
  put(record: KeyRecord): void {
    const entry = entryOf(record);
    this.byHash.set(entry.hash, entry);
    this.verified.clear();
  }

  async refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    this.refreshing = (async () => {
      const signature = await this.store.keysSignature();
      if (signature === this.signature) return;
      const keys = await this.store.listKeys();
      this.byHash = new Map(keys.map((k) => entryOf(k)).map((e) => [e.hash, e]));
      this.verified.clear();
      this.signature = signature;
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }
}
