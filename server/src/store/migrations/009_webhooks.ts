import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Webhooks: the endpoints keys register, each event's body once (`webhook_events`, the
 * message: its id is the `webhook-id` every attempt carries), one delivery per event and
 * endpoint with its state and last attempt, games waiting to be settled, and where event
 * production stands (the last board version whose events are stored). Deliveries live here so
 * a restart or a new leader loses none and sends none with a new id. Portable SQL: SQLite and
 * PostgreSQL. Times are epoch ms.
 */
export const webhooks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      /** JSON: the event types. */
      .addColumn('events', 'text', (c) => c.notNull())
      /** JSON: WebhookFilters. */
      .addColumn('filters', 'text', (c) => c.notNull())
      .addColumn('line_threshold', 'double precision', (c) => c.notNull())
      .addColumn('odds_threshold', 'integer', (c) => c.notNull())
      .addColumn('min_edge', 'double precision')
      .addColumn('entry', 'text')
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('previous_secret', 'text')
      .addColumn('previous_secret_until', 'bigint')
      /** active, paused or disabled. */
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('failing_since', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_endpoints_key').on('webhook_endpoints').column('key_id').execute();
    await db.schema
      .createTable('webhook_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_events_created').on('webhook_events').column('created_at').execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      /** pending, succeeded or failed. */
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      /** Pending: when the next attempt is due (or, while one is under way, when it may be taken again). */
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('last_attempt_at', 'bigint')
      .addColumn('response_status', 'integer')
      .addColumn('latency_ms', 'integer')
      .addColumn('error', 'text')
      .addPrimaryKeyConstraint('webhook_deliveries_pk', ['endpoint_id', 'event_id'])
      .execute();
    // What is due, in order; only pending rows are indexed.
    await db.schema
      .createIndex('webhook_deliveries_due')
      .on('webhook_deliveries')
      .column('next_attempt_at')
      .where(sql.ref('status'), '=', 'pending')
      .execute();
    // An endpoint's log, newest first.
    await db.schema
      .createIndex('webhook_deliveries_log')
      .on('webhook_deliveries')
      .columns(['endpoint_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('webhook_settlements')
      .addColumn('game_id', 'text', (c) => c.primaryKey())
      .addColumn('sport', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('final_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('webhook_cursor')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('version', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'webhook_cursor',
      'webhook_settlements',
      'webhook_deliveries',
      'webhook_events',
      'webhook_endpoints',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
