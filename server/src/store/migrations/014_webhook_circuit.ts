import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Fair webhook delivery (issue #42): an endpoint's run of failed attempts, and the circuit
 * breaker's state when the service paused it (why, since when, when it is next probed), on
 * `webhook_endpoints`; and an index of each endpoint's pending deliveries by due time, so a
 * claim takes a few from each endpoint in turn however long another's backlog is. Portable
 * SQL: SQLite and PostgreSQL.
 */
export const webhookCircuit: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('webhook_endpoints')
      .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('webhook_endpoints').addColumn('paused_reason', 'text').execute();
    await db.schema.alterTable('webhook_endpoints').addColumn('paused_at', 'bigint').execute();
    await db.schema.alterTable('webhook_endpoints').addColumn('probe_at', 'bigint').execute();
    await db.schema
      .createIndex('webhook_deliveries_endpoint_due')
      .on('webhook_deliveries')
      .columns(['endpoint_id', 'next_attempt_at'])
      .where(sql.ref('status'), '=', 'pending')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('webhook_deliveries_endpoint_due').execute();
    for (const column of ['probe_at', 'paused_at', 'paused_reason', 'consecutive_failures']) {
      await db.schema.alterTable('webhook_endpoints').dropColumn(column).execute();
    }
  },
};
