/**
 * What every Store must do, written once: run against SQLite here and PostgreSQL in the
 * shared-engine tests. `open()` gives an empty store.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyRecord, Store } from '../../src/store/types';

export function keyRecord(overrides: Partial<KeyRecord> = {}): KeyRecord {
  const id = randomUUID();
  return {
    id,
    keyHash: randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', ''),
    keyPrefix: `pf_${id.slice(0, 5)}`,
    tier: 'pro',
    label: 'a key',
    email: null,
    rpm: null,
    rpd: null,
    scanLimit: null,
    createdAt: Date.UTC(2026, 10, 22, 1, 2, 3),
    revokedAt: null,
    ...overrides,
  };
}

export function storeSuite(name: string, open: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    const stores: Store[] = [];
    const fresh = async () => {
      const s = await open();
      stores.push(s);
      return s;
    };
    afterEach(async () => {
      for (const s of stores.splice(0)) await s.close();
    });

    it('keeps keys and finds them by hash, numbers as numbers', async () => {
      const store = await fresh();
      const enterprise = keyRecord({
        tier: 'enterprise',
        rpm: 100_000,
        rpd: 50_000_000_000,
        scanLimit: 5000,
        email: 'a@b.co',
      });
      await store.insertKey(enterprise);
      expect(await store.findByHash(enterprise.keyHash)).toEqual(enterprise);
      expect(await store.findByHash('0'.repeat(64))).toBeUndefined();
      const other = keyRecord({ createdAt: enterprise.createdAt + 1 });
      await store.insertKey(other);
      expect((await store.listKeys()).map((k) => k.id)).toEqual([enterprise.id, other.id]);
    });

    it('refuses a second key with the same hash or prefix', async () => {
      const store = await fresh();
      const key = keyRecord();
      await store.insertKey(key);
      await expect(store.insertKey(keyRecord({ keyHash: key.keyHash }))).rejects.toThrow();
      await expect(store.insertKey(keyRecord({ keyPrefix: key.keyPrefix }))).rejects.toThrow();
    });

    it('revokes an active key once', async () => {
      const store = await fresh();
      const key = keyRecord();
      await store.insertKey(key);
      expect(await store.revokeKey(key.keyPrefix, 1234)).toBe(true);
      expect(await store.revokeKey(key.keyPrefix, 5678)).toBe(false);
      expect(await store.revokeKey('pf_nope0', 5678)).toBe(false);
      expect((await store.findByHash(key.keyHash))?.revokedAt).toBe(1234);
    });

    it('counts keys and revoked keys, and finds those changed since a time', async () => {
      const store = await fresh();
      expect(await store.keyCounts()).toEqual({ keys: 0, revoked: 0 });
      const old = keyRecord({ createdAt: 1_000 });
      const recent = keyRecord({ createdAt: 5_000 });
      await store.insertKey(old);
      await store.insertKey(recent);
      expect(await store.keyCounts()).toEqual({ keys: 2, revoked: 0 });
      expect((await store.keysChangedSince(5_000)).map((k) => k.id)).toEqual([recent.id]);
      await store.revokeKey(old.keyPrefix, 9_000);
      expect(await store.keyCounts()).toEqual({ keys: 2, revoked: 1 });
      const changed = await store.keysChangedSince(6_000);
      expect(changed).toEqual([{ ...old, revokedAt: 9_000 }]);
      expect(await store.keysChangedSince(10_000)).toEqual([]);
    });

    it('adds usage deltas per key and day', async () => {
      const store = await fresh();
      expect(await store.usageOn('k1', '2026-11-22')).toBe(0);
      await store.addUsage([
        { keyId: 'k1', day: '2026-11-22', count: 5 },
        { keyId: 'k2', day: '2026-11-22', count: 1 },
        { keyId: 'k1', day: '2026-11-21', count: 9 },
      ]);
      await store.addUsage([{ keyId: 'k1', day: '2026-11-22', count: 3 }]);
      await store.addUsage([]);
      expect(await store.usageOn('k1', '2026-11-22')).toBe(8);
      expect(await store.usageOn('k2', '2026-11-22')).toBe(1);
      expect(await store.usageOn('k1', '2026-11-21')).toBe(9);
    });
  });
}
