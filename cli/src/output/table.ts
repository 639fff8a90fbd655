/**
 * Rows as a terminal table (cli-table3, no borders, upper-case headers, sized to the terminal)
 * or, piped, as tab-separated lines with no header and no decoration.
 */
import { stripVTControlCharacters } from 'node:util';
import Table from 'cli-table3';
import type { Colors } from './color';

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** Narrowest this column may be squeezed to when the terminal is too narrow. */
  min?: number;
  /** A column only one mode shows: e.g. MATCHUP on a terminal, away and home teams as fields when piped. */
  only?: 'terminal' | 'piped';
}

/** What a cell shows on a terminal, and what it is in piped output. */
export interface Cell {
  text: string;
  plain: string;
}

export function cell(text: string, plain: string = text): Cell {
  return { text, plain };
}

const GAP = 2;

function visibleWidth(text: string): number {
  return [...stripVTControlCharacters(text)].length;
}

/** Natural widths, then the widest columns give up space until the table fits. */
export function fitWidths(columns: Column[], natural: number[], maxWidth: number): number[] {
  const widths = [...natural];
  const budget = maxWidth - GAP * (columns.length - 1);
  let excess = widths.reduce((a, b) => a + b, 0) - budget;
  while (excess > 0) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      const floor = Math.min(natural[i] ?? 0, columns[i]?.min ?? 6);
      if ((widths[i] ?? 0) > floor && (widest < 0 || (widths[i] ?? 0) > (widths[widest] ?? 0))) widest = i;
    }
    if (widest < 0) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
    excess--;
  }
  return widths;
}

export function renderTable(columns: Column[], rows: Cell[][], width: number, c: Colors): string {
  const natural = columns.map((col, i) =>
    Math.max(col.header.length, ...rows.map((row) => visibleWidth(row[i]?.text ?? ''))),
  );
  const widths = fitWidths(columns, natural, width);
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
