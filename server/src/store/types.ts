/**
 * The store as the API needs it: keys (hashes only) and durable daily usage. One Kysely
 * implementation runs on SQLite and PostgreSQL (store/kyselyStore.ts).
 */
import type { Tier } from '@propsfeed/contract';

export interface KeyRecord {
  id: string;
  keyHash: string;
  keyPrefix: string;
  tier: Tier;
  label: string;
  email: string | null;
  /** Enterprise overrides; null means the tier's number. */
  rpm: number | null;
  rpd: number | null;
  scanLimit: number | null;
  createdAt: number;
  revokedAt: number | null;
}

export interface KeyCounts {
  keys: number;
  revoked: number;
}

export interface UsageDelta {
  keyId: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  count: number;
}

export interface KeyStore {
  /** Fails when the hash or prefix is already taken. */
  insertKey(key: KeyRecord): Promise<void>;
  listKeys(): Promise<KeyRecord[]>;
  findByHash(keyHash: string): Promise<KeyRecord | undefined>;
  /** Revokes the active key with this prefix; false when there is none. */
  revokeKey(keyPrefix: string, atMs: number): Promise<boolean>;
  /**
   * How many keys there are and how many of them are revoked. Keys are never deleted or
   * un-revoked, so the pair changes on every create and revoke, by any process: what key
   * caches poll.
   */
  keyCounts(): Promise<KeyCounts>;
  /** Keys created or revoked at or after `sinceMs` (what a key cache reads to catch up). */
  keysChangedSince(sinceMs: number): Promise<KeyRecord[]>;
}

export interface UsageStore {
  usageOn(keyId: string, day: string): Promise<number>;
  /** Adds each delta to the stored count of that key and day. */
  addUsage(deltas: UsageDelta[]): Promise<void>;
}

export interface Store extends KeyStore, UsageStore {
  close(): Promise<void>;
}
