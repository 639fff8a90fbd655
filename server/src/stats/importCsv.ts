/**
 * `props stats import <file.csv>`: a game-log CSV into the store's game logs, all or nothing.
 * Works on the server's store (PROPS_DATA_DIR or PROPS_DATABASE_URL) whether or not a server
 * runs; a running server picks the logs up at its next reload.
 */
import { readFile } from 'node:fs/promises';
import { type Config, loadConfig } from '../config';
import { createGameLogStore } from '../history/gameLogs';
import type { GameLog } from '../history/types';
import { openDb } from '../store/db';
import { parseGameLogCsv } from './csv';

/** The file cannot be imported: each entry is one sentence, most with a line number. */
export class CsvImportError extends Error {
  constructor(
    readonly file: string,
    readonly errors: string[],
  ) {
    super(`${file} was not imported: ${errors.length} problem${errors.length === 1 ? '' : 's'}`);
  }
}

export interface CsvImportResult {
  file: string;
  /** Rows in the file. */
  rows: number;
  /** Rows new to the store; the others were there already (the same player, stat, date and opponent). */
  imported: number;
}

export async function importGameLogCsv(
  file: string,
  config: Pick<Config, 'PROPS_DATA_DIR' | 'PROPS_DATABASE_URL'> = loadConfig(),
  opts: { create?: boolean } = {},
): Promise<CsvImportResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new CsvImportError(file, [`cannot read ${file}: ${reason}`]);
  }
  const parsed = parseGameLogCsv(text);
  if (!parsed.ok) throw new CsvImportError(file, parsed.errors);

  const logs: GameLog[] = parsed.rows.map(({ line: _line, ...row }) => ({ ...row, source: 'import' }));
  const db = await openDb({
    databaseUrl: config.PROPS_DATABASE_URL,
    dataDir: config.PROPS_DATA_DIR,
    ...(opts.create === undefined ? {} : { create: opts.create }),
  });
  try {
    // One transaction: a failure leaves nothing half-imported.
    const imported = await createGameLogStore(db).append(logs);
    return { file, rows: logs.length, imported };
  } finally {
    await db.close();
  }
}
