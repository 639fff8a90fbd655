import type { Kysely, Migration } from 'kysely';

/** Key caches catch up on keys created or revoked since a time (store.keysChangedSince). */
export const keyChanges: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('api_keys_created_at').on('api_keys').column('created_at').execute();
    await db.schema.createIndex('api_keys_revoked_at').on('api_keys').column('revoked_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('api_keys_revoked_at').execute();
    await db.schema.dropIndex('api_keys_created_at').execute();
  },
};
