/**
 * Key administration on the server's store, whether or not a server runs: what
 * `props keys …` calls. A running server sees each change within a second (keys/cache.ts).
 */
import { type Config, loadConfig } from '../config';
import { openStore } from '../store/kyselyStore';
import type { Store } from '../store/types';
import { type CreatedKeyResult, type CreateKeyInput, describeKey, issueKey, type KeyRow } from './issue';

export interface KeyAdmin {
  create(input: CreateKeyInput): Promise<CreatedKeyResult>;
  /** Every key, oldest first, revoked ones included (with revokedAt). */
  list(): Promise<KeyRow[]>;
  /** Revokes the active key with this prefix; false when there is none. */
  revoke(keyPrefix: string): Promise<boolean>;
  close(): Promise<void>;
}

export function keyAdminOver(store: Store): KeyAdmin {
  return {
    async create(input) {
      return (await issueKey(store, input)).created;
    },
    async list() {
      return (await store.listKeys()).map(describeKey);
    },
    revoke: (keyPrefix) => store.revokeKey(keyPrefix, Date.now()),
    close: () => store.close(),
  };
}

/**
 * Opens the store PROPS_DATA_DIR (or PROPS_DATABASE_URL) names, applying migrations. With
 * `create: false`, a store that does not exist yet is a StoreMissingError, not a new empty one.
 */
export async function openKeyAdmin(config: Config = loadConfig(), opts: { create?: boolean } = {}): Promise<KeyAdmin> {
  return keyAdminOver(await openStore(config, opts));
}
