/**
 * Game-log CSV import format: one row per player, game and stat. Parsing is all-or-nothing: a
 * file with any bad row yields every error (with its line number) and no rows.
 */
import { isStatKey, SPORT_IDS, type SportId, STAT_KEYS } from '@propsfeed/contract';
import { CsvError, parse } from 'csv-parse/sync';
import { playerKey } from '../books/names';
import { teamName } from '../books/teams';
import type { GameLog } from '../history/types';

/** The columns, in the order docs/server.md documents them; the header may list them in any order. */
export const CSV_COLUMNS = ['date', 'sport', 'player', 'team', 'opponent', 'home_away', 'stat', 'value'] as const;

/**
 * A parsed row: a game log as stored, without its source (the importer sets it), and the line
 * of the file the row starts on, for messages. Teams are full names where the sport has
 * abbreviations ("DEN" → "Denver Nuggets"), and playerKey is the books' key, so imported logs
 * meet the board's props.
 */
export interface CsvGameLog extends Omit<GameLog, 'source'> {
  line: number;
}

export type CsvParseResult = { ok: true; rows: CsvGameLog[] } | { ok: false; errors: string[] };

const MAX_TEXT = 100;

export function parseGameLogCsv(text: string): CsvParseResult {
  const records = splitCsv(text);
  if ('error' in records) return { ok: false, errors: [records.error] };
  const [header, ...body] = records.records;
  if (!header)
    return { ok: false, errors: [`the file is empty; the first line must name the columns: ${CSV_COLUMNS.join(',')}`] };

  const names = header.fields.map((f) => f.trim().toLowerCase());
  const missing = CSV_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length > 0) {
    return {
      ok: false,
      errors: [
        `line ${header.line}: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (expected ${CSV_COLUMNS.join(',')})`,
      ],
    };
  }
  const index = Object.fromEntries(CSV_COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<
    (typeof CSV_COLUMNS)[number],
    number
  >;

  const errors: string[] = [];
  const rows: CsvGameLog[] = [];
  const seen = new Map<string, number>();
  for (const record of body) {
    if (record.fields.length === 1 && record.fields[0]?.trim() === '') continue;
    if (record.fields.length !== names.length) {
      errors.push(`line ${record.line}: ${record.fields.length} fields, the header has ${names.length}`);
      continue;
    }
    const cell = (c: (typeof CSV_COLUMNS)[number]) => (record.fields[index[c]] ?? '').trim();
    const row = validateRow(record.line, cell, errors);
    if (!row) continue;
    const identity = [row.sport, row.playerKey, row.date, row.stat].join('|');
    const first = seen.get(identity);
    if (first !== undefined) {
      errors.push(`line ${row.line}: the same player, team, date and stat as line ${first}`);
      continue;
    }
    seen.set(identity, row.line);
    rows.push(row);
  }
  if (errors.length > 0) return { ok: false, errors };
  if (rows.length === 0) return { ok: false, errors: ['the file has a header but no rows'] };
  return { ok: true, rows };
}

function validateRow(
  line: number,
  cell: (c: (typeof CSV_COLUMNS)[number]) => string,
  errors: string[],
): CsvGameLog | undefined {
  const problems: string[] = [];

  const date = cell('date');
  if (!isCalendarDate(date)) problems.push(`date '${date}' is not a YYYY-MM-DD date`);

  const sport = cell('sport').toLowerCase();
  const knownSport = (SPORT_IDS as readonly string[]).includes(sport);
  if (!knownSport) problems.push(`sport '${cell('sport')}' is not one of ${SPORT_IDS.join(', ')}`);

  const texts = { player: cell('player'), team: cell('team'), opponent: cell('opponent') };
  for (const [name, value] of Object.entries(texts)) {
    if (value === '') problems.push(`${name} is empty`);
    else if (value.length > MAX_TEXT) problems.push(`${name} is longer than ${MAX_TEXT} characters`);
  }

  const homeAway = cell('home_away').toLowerCase();
  if (!['home', 'away', 'h', 'a'].includes(homeAway))
    problems.push(`home_away '${cell('home_away')}' is not home or away`);

  const stat = cell('stat').toLowerCase();
  if (knownSport && !isStatKey(sport as SportId, stat)) {
    problems.push(`stat '${cell('stat')}' is not a ${sport} stat key (${STAT_KEYS[sport as SportId].join(', ')})`);
  }

  const rawValue = cell('value');
  const value = Number(rawValue);
  if (!/^-?\d+(\.\d+)?$/.test(rawValue) || !Number.isFinite(value))
    problems.push(`value '${rawValue}' is not a number`);

  if (problems.length > 0) {
    errors.push(`line ${line}: ${problems.join('; ')}`);
    return undefined;
  }
  const team = teamName(sport as SportId, texts.team);
  return {
    line,
    date,
    sport: sport as SportId,
    player: texts.player,
    playerKey: playerKey(texts.player, team),
    team,
    opponent: teamName(sport as SportId, texts.opponent),
    home: homeAway.startsWith('h'),
    stat,
    value,
  };
}

function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

interface CsvRecord {
  /** 1-based line the record starts on. */
  line: number;
  fields: string[];
}

/**
 * RFC 4180 records (csv-parse): quoted fields may hold commas, doubled quotes and line breaks;
 * blank lines are kept (as one empty field) so every record knows the line it starts on.
 */
export function splitCsv(text: string): { records: CsvRecord[] } | { error: string } {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, each record comes as { record, info } (the sync parser's types do not say so).
    parsed = parse(text, {
      info: true,
      bom: true,
      trim: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: false,
    }) as unknown as typeof parsed;
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const { lines } = err as CsvError & { lines: number };
    if (err.code === 'CSV_QUOTE_NOT_CLOSED') return { error: `line ${lines}: a quoted field is never closed` };
    return { error: `line ${lines}: not valid CSV (${err.message})` };
  }
  // A record starts on the line after the one the previous record ended on.
  let nextLine = 1;
  return {
    records: parsed.map(({ record, info }) => {
      const line = nextLine;
      nextLine = info.lines + 1;
      return { line, fields: record };
    }),
  };
}
