/** The payout tables a server runs with: the catalog's, or an operator's replacement (file or env). */
import { readFileSync } from 'node:fs';
import { ENTRY_TABLES, type EntryTable, EntryTablesSchema } from '@propsfeed/contract';
import { type Config, ConfigError } from '../config';

/**
 * PROPS_ENTRIES_FILE (a JSON file) or PROPS_ENTRIES (the JSON itself) replaces every table:
 * a list of `{id, book, kind, picks, payouts: [{hits, multiplier}], effectiveFrom}`, or
 * `{entries: [...]}`. A missing file, bad JSON or a table that cannot break even stops
 * start-up with a ConfigError naming the variable and the fault.
 */
export function entryTablesOf(config: Pick<Config, 'PROPS_ENTRIES_FILE' | 'PROPS_ENTRIES'>): readonly EntryTable[] {
  const file = config.PROPS_ENTRIES_FILE;
  const inline = config.PROPS_ENTRIES;
  if (file === undefined && inline === undefined) return ENTRY_TABLES;
  if (file !== undefined && inline !== undefined)
    throw new ConfigError(
      'invalid configuration:\n  PROPS_ENTRIES: set either PROPS_ENTRIES or PROPS_ENTRIES_FILE, not both',
    );
  const variable = file !== undefined ? 'PROPS_ENTRIES_FILE' : 'PROPS_ENTRIES';
  const fail = (why: string): never => {
    throw new ConfigError(`invalid configuration:\n  ${variable}: ${why}`);
  };
  let text = inline ?? '';
  if (file !== undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      fail(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    fail(`not JSON: ${(err as Error).message}`);
  }
  const list =
    json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as { entries?: unknown }).entries : json;
  const parsed = EntryTablesSchema.safeParse(list);
  if (!parsed.success) {
    fail(
      parsed.error.issues
        .slice(0, 5)
        .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
        .join('; '),
    );
  }
  return parsed.data as EntryTable[];
}
