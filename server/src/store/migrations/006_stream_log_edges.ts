import type { Kysely, Migration } from 'kysely';

/**
 * What a minEdge stream needs of each logged prop event to be told as it was live: the new
 * row's edge, the prop as it stood before the change (JSON: game ids, sport, live, player,
 * stat, edge; null when its game was not on the previous board), and the prop.removed JSON
 * sent when its edge fell below a view's floor (only where that can happen).
 */
export const streamLogEdges: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('stream_events').addColumn('edge', 'double precision').execute();
    await db.schema.alterTable('stream_events').addColumn('before', 'text').execute();
    await db.schema.alterTable('stream_events').addColumn('json_below', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['json_below', 'before', 'edge']) {
      await db.schema.alterTable('stream_events').dropColumn(column).execute();
    }
  },
};
