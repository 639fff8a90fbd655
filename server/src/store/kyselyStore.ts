/** The Store over Kysely: portable queries only, so SQLite and PostgreSQL run the same code. */
import type { Tier } from '@propsfeed/contract';
import { sql } from 'kysely';
import type { Config } from '../config';
import { type Db, num, numOrNull, openDb } from './db';
import type { KeyRecord, Store, UsageDelta } from './types';

interface ApiKeysTable {
  id: string;
  key_hash: string;
  key_prefix: string;
  tier: string;
  label: string;
  email: string | null;
  rpm: number | null;
  rpd: number | string | null;
  scan_limit: number | null;
  created_at: number | string;
  revoked_at: number | string | null;
}

interface UsageTable {
  key_id: string;
  day: string;
  count: number | string;
}

export interface StoreSchema {
  api_keys: ApiKeysTable;
  key_usage_daily: UsageTable;
}

function toRecord(row: ApiKeysTable): KeyRecord {
  return {
    id: row.id,
    keyHash: row.key_hash,
    keyPrefix: row.key_prefix,
    tier: row.tier as Tier,
    label: row.label,
    email: row.email,
    rpm: numOrNull(row.rpm),
    rpd: numOrNull(row.rpd),
    scanLimit: numOrNull(row.scan_limit),
    createdAt: num(row.created_at),
    revokedAt: numOrNull(row.revoked_at),
  };
}

export function createKyselyStore(db: Db<StoreSchema>, closeDb = true): Store {
  const k = db.kysely;
  return {
    async insertKey(key) {
      await k
        .insertInto('api_keys')
        .values({
          id: key.id,
          key_hash: key.keyHash,
          key_prefix: key.keyPrefix,
          tier: key.tier,
          label: key.label,
          email: key.email,
          rpm: key.rpm,
          rpd: key.rpd,
          scan_limit: key.scanLimit,
          created_at: key.createdAt,
          revoked_at: key.revokedAt,
        })
        .execute();
    },
    async listKeys() {
      const rows = await k.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(toRecord);
    },
    async findByHash(keyHash) {
      const row = await k.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },
    async revokeKey(keyPrefix, atMs) {
      const result = await k
        .updateTable('api_keys')
        .set({ revoked_at: atMs })
        .where('key_prefix', '=', keyPrefix)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async keyCounts() {
      const row = await k
        .selectFrom('api_keys')
        .select([sql<number | string>`count(*)`.as('n'), sql<number | string>`count(revoked_at)`.as('r')])
        .executeTakeFirstOrThrow();
      return { keys: num(row.n), revoked: num(row.r) };
    },
    async keysChangedSince(sinceMs) {
      const rows = await k
        .selectFrom('api_keys')
        .selectAll()
        .where((eb) => eb.or([eb('created_at', '>=', sinceMs), eb('revoked_at', '>=', sinceMs)]))
        .execute();
      return rows.map(toRecord);
    },
    async usageOn(keyId, day) {
      const row = await k
        .selectFrom('key_usage_daily')
        .select('count')
        .where('key_id', '=', keyId)
        .where('day', '=', day)
        .executeTakeFirst();
      return row ? num(row.count) : 0;
    },
    async addUsage(deltas: UsageDelta[]) {
      const rows = deltas.filter((d) => d.count > 0);
      if (rows.length === 0) return;
      await k
        .insertInto('key_usage_daily')
        .values(rows.map((d) => ({ key_id: d.keyId, day: d.day, count: d.count })))
        .onConflict((oc) =>
          oc.columns(['key_id', 'day']).doUpdateSet({ count: sql`key_usage_daily.count + excluded.count` }),
        )
        .execute();
    },
    async close() {
      if (closeDb) await db.close();
    },
  };
}

/** Opens the key store PROPS_DATA_DIR (or PROPS_DATABASE_URL) names, applying migrations; `create: false` refuses a new one. */
export async function openStore(
  config: Pick<Config, 'PROPS_DATA_DIR' | 'PROPS_DATABASE_URL'>,
  opts: { create?: boolean } = {},
): Promise<Store> {
  const db = await openDb<StoreSchema>({
    databaseUrl: config.PROPS_DATABASE_URL,
    dataDir: config.PROPS_DATA_DIR,
    ...(opts.create === undefined ? {} : { create: opts.create }),
  });
  return createKyselyStore(db);
}
