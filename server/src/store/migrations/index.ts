import type { Migration } from 'kysely';
import { keysUsage } from './001_keys_usage';
import { lineHistory } from './002_line_history';
import { keyChanges } from './003_key_changes';
import { propLocks } from './004_prop_locks';
import { streamLog } from './005_stream_log';
import { streamLogEdges } from './006_stream_log_edges';
import { webhooks } from './009_webhooks';
import { streamLogRecords } from './010_stream_log_records';
import { propLockMarket } from './012_prop_lock_market';
import { linePoints } from './013_line_points';
import { webhookCircuit } from './014_webhook_circuit';

/**
 * Every migration, by name; names sort in the order they apply. Each concern adds its own
 * file here (e.g. `001_keys_usage`, `002_line_history`); SQL must run on SQLite and PostgreSQL.
 */
export const migrations: Record<string, Migration> = {
  '001_keys_usage': keysUsage,
  '002_line_history': lineHistory,
  '003_key_changes': keyChanges,
  '004_prop_locks': propLocks,
  '005_stream_log': streamLog,
  '006_stream_log_edges': streamLogEdges,
  '009_webhooks': webhooks,
  '010_stream_log_records': streamLogRecords,
  '012_prop_lock_market': propLockMarket,
  '013_line_points': linePoints,
  '014_webhook_circuit': webhookCircuit,
};
