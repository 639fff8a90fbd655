/**
 * Rows as a terminal table (cli-table3, no borders, upper-case headers, sized to the terminal)
 * or, piped, as tab-separated lines with no header and no decoration.
 */
import { stripVTControlCharacters } from 'node:util';
import Table from 'cli-table3';
import type { Colors } from './color';
import { printable } from './printable';

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** Narrowest this column may be squeezed to when the terminal is too narrow. */
  min?: number;
  /** A column only one mode shows: e.g. MATCHUP on a terminal, away and home teams as fields when piped. */
  only?: 'terminal' | 'piped';
  /** Left out on a terminal too narrow for every column at its `min` (the rightmost such column first). */
  optional?: boolean;
}

/** What a cell shows on a terminal, and what it is in piped output. */
export interface Cell {
  text: string;
  plain: string;
}

/**
 * A cell of data: `text` alone is the data and is escaped (printable); given with `plain`,
 * `text` is what the command decorated (colour, relative times) and the command escapes any
 * stored text inside it. `plain` is always escaped.
 */
export function cell(text: string, plain?: string): Cell {
  return plain === undefined ? { text: printable(text), plain: printable(text) } : { text, plain: printable(plain) };
}

const GAP = 2;

function visibleWidth(text: string): number {
  return [...stripVTControlCharacters(text)].length;
}

/**
 * Natural widths, shrunk until the table fits: first the flexible columns (those with a `min`:
 * names, matchups), widest first, down to their `min`; then any column, down to 4.
 */
export function fitWidths(columns: Column[], natural: number[], maxWidth: number): number[] {
  const widths = [...natural];
  let excess = widths.reduce((a, b) => a + b, 0) + GAP * (columns.length - 1) - maxWidth;
  for (const floorOf of [(i: number) => columns[i]?.min, () => 4]) {
    while (excess > 0) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        const floor = floorOf(i);
        if (floor === undefined || (widths[i] ?? 0) <= floor) continue;
        if (widest < 0 || (widths[i] ?? 0) > (widths[widest] ?? 0)) widest = i;
      }
      if (widest < 0) break;
      widths[widest] = (widths[widest] ?? 0) - 1;
      excess--;
    }
  }
  return widths;
}

export function renderTable(allColumns: Column[], allRows: Cell[][], width: number, c: Colors): string {
  let columns = allColumns;
  let rows = allRows;
  const naturalOf = (cols: Column[], cells: Cell[][]) =>
    cols.map((col, i) => Math.max(col.header.length, ...cells.map((row) => visibleWidth(row[i]?.text ?? ''))));
  const tightest = (cols: Column[], natural: number[]) =>
    natural.reduce((sum, n, i) => sum + Math.min(n, cols[i]?.min ?? n), 0) + GAP * (cols.length - 1);
  while (tightest(columns, naturalOf(columns, rows)) > width) {
    const drop = columns.findLastIndex((col) => col.optional);
    if (drop < 0) break;
    columns = columns.filter((_, i) => i !== drop);
    rows = rows.map((row) => row.filter((_, i) => i !== drop));
  }
  const widths = fitWidths(columns, naturalOf(columns, rows), width);
  const none = '';
  const table = new Table({
    head: columns.map((col) => c.bold(col.header.toUpperCase())),
    colWidths: widths,
    colAligns: columns.map((col) => col.align ?? 'left'),
    chars: {
      top: none,
      'top-mid': none,
      'top-left': none,
      'top-right': none,
      bottom: none,
      'bottom-mid': none,
      'bottom-left': none,
      'bottom-right': none,
      left: none,
      'left-mid': none,
      mid: none,
      'mid-mid': none,
      right: none,
      'right-mid': none,
      middle: ' '.repeat(GAP),
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  for (const row of rows) table.push(row.map((x) => x.text));
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}

/** Piped output: one line per row, fields separated by tabs (tabs and newlines in values become spaces). */
export function renderTsv(rows: Cell[][]): string {
  return rows.map((row) => `${row.map((x) => x.plain.replace(/[\t\n\r]/g, ' ')).join('\t')}\n`).join('');
}
