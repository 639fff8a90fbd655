/**
 * Keys in memory, so a request never waits on the store. The cache polls the store's key
 * counts, so a key created or revoked by another process (the CLI) counts within a second,
 * and catches up by reading only the keys changed since the newest change it holds: a new key
 * costs one small query, never a reload of the whole key table.
 */
import type { KeyCounts, KeyRecord, KeyStore } from '../store/types';
import { constantTimeEqual, hashKey } from './format';

export const KEY_REFRESH_MS = 400;

/**
 * How far before the newest change it holds the cache reads changes again: a change committed
 * late (a slow insert) or stamped by a clock running behind (another replica, the CLI) is
 * still found. A change it misses anyway leaves the counts unequal, and the cache reloads.
 */
export const CHANGE_OVERLAP_MS = 60_000;

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
  /** The store's counts the cache last matched; undefined until the first load. */
  private counts: KeyCounts | undefined;
  private revoked = 0;
  /** Epoch ms of the newest creation or revocation held. */
  private newest = 0;
  /** The keys not revoked, by id: for holders of long-lived access (streams, stream tokens). */
  private activeById = new Map<string, KeyRecord>();
  private readonly changeListeners = new Set<() => void>();
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

  /** Whether the key with this id is known and not revoked. */
  isActive(keyId: string): boolean {
    return this.activeById.has(keyId);
  }

  /** The active record of the key with this id, or undefined (unknown or revoked). */
  activeRecord(keyId: string): KeyRecord | undefined {
    return this.activeById.get(keyId);
  }

  /** Calls `listener` after every change of the keys held (a poll that found one, or `put`). */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Records a change made by this process at once, without waiting for the next poll. */
  put(record: KeyRecord): void {
    if (this.hold(record)) this.changed();
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  /** Holds the record; false when it was held as it is already. */
  private hold(record: KeyRecord): boolean {
    const entry = entryOf(record);
    const previous = this.byHash.get(entry.hash);
    // Read again while catching up, unchanged: nothing to do.
    if (previous && previous.record.revokedAt === record.revokedAt) return false;
    this.byHash.set(entry.hash, entry);
    if (record.revokedAt === null) this.activeById.set(record.id, record);
    else this.activeById.delete(record.id);
    if (previous) {
      if (previous.record.revokedAt !== null) this.revoked -= 1;
      // Remembered lookups may point at the record this one replaces (a revocation).
      this.verified.clear();
    }
    if (record.revokedAt !== null) this.revoked += 1;
    this.newest = Math.max(this.newest, record.createdAt, record.revokedAt ?? 0);
    return true;
  }

  async refresh(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    this.refreshing = (async () => {
      const counts = await this.store.keyCounts();
      if (this.counts && counts.keys === this.counts.keys && counts.revoked === this.counts.revoked) return;
      if (this.counts) {
        for (const record of await this.store.keysChangedSince(this.newest - CHANGE_OVERLAP_MS)) this.put(record);
        if (this.holds(counts)) {
          this.counts = counts;
          return;
        }
      }
      await this.reload();
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** Whether the cache holds as many keys and revoked keys as `counts` says. */
  private holds(counts: KeyCounts): boolean {
    return this.byHash.size === counts.keys && this.revoked === counts.revoked;
  }

  /** Every key, read again (the first load, or when catching up left the counts unequal). */
  private async reload(): Promise<void> {
    // Counted before the read: a key made in between is read too, and only makes the next poll read it again.
    const counts = await this.store.keyCounts();
    const keys = await this.store.listKeys();
    this.byHash = new Map();
    this.activeById = new Map();
    this.revoked = 0;
    this.newest = 0;
    this.verified.clear();
    for (const record of keys) this.hold(record);
    this.counts = counts;
    this.changed();
  }
}
