import type { Kysely, Migration } from 'kysely';

/**
 * The market beside each lock: the priced book's over chance at the lock's line (its two
 * sides de-vigged, given no push) as it stood at the start, so the track record can score
 * the market on the same props as the service. Null where no book priced that line. Locks
 * stored before this column have none: the market is scored on the locks that have one.
 */
export const propLockMarket: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('prop_locks').addColumn('market_p_over', 'double precision').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('prop_locks').dropColumn('market_p_over').execute();
  },
};
