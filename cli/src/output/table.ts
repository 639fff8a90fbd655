/**
 * Rows as a terminal table (no borders, upper-case headers, fitted to the terminal's width) or,
 * piped, as tab-separated lines with no header and no decoration. Every command's table comes
 * through here, so every table fits the same way:
 *
 * 1. While the columns at their natural widths do not fit, the command's `drop` list says which
 *    column is left out next (first named, first out); then any of those that fits again comes
 *    back, the last named first. A column the list does not name (the pick, the column the rows
 *    are sorted by) always stays.
 * 2. Then flexible columns (`min`: names, matchups) narrow, widest first, down to their longest
 *    word: a narrowed cell wraps between words onto a second line and never cuts a word.
 * 3. Only on a terminal too narrow for the columns that always stay do flexible columns narrow
 *    further, down to `min`, breaking words.
 */
import type { Colors } from './color';
import { printable } from './printable';
import { longestWord, visibleWidth, wrapLines } from './wrap';

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** The unit of the column's values, said in its header after the name: `EDGE (% pts)`. */
  unit?: string;
  /**
   * A flexible column: on a narrow terminal its cells wrap between words, down to the longest
   * word; below that (a terminal too narrow for the columns that always stay), down to this width.
   */
  min?: number;
  /** A column only one mode shows: e.g. MATCHUP on a terminal, away and home teams as fields when piped. */
  only?: 'terminal' | 'piped';
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

/** A terminal table's extras. */
export interface TableOptions {
  /**
   * The headers of the columns a terminal too narrow for every column may leave out, in the
   * order they go (first named, first out). Columns not named always stay.
   */
  drop?: readonly string[];
  /**
   * A line of prose under each row (by row index; undefined: none), wrapped at the table's
   * width and indented: a row's workings (`--why`).
   */
  details?: readonly (string | undefined)[];
}

const GAP = 2;
const DETAIL_INDENT = '    ';

/** A column's header as the terminal shows it: the name in capitals, then its unit. */
export function headerText(col: Column): string {
  return col.unit ? `${col.header.toUpperCase()} (${col.unit})` : col.header.toUpperCase();
}

/** The width each column gets on a terminal `width` wide; null for a column left out. */
export function fitColumns(
  columns: readonly Column[],
  rows: readonly Cell[][],
  width: number,
  drop: readonly string[] = [],
): (number | null)[] {
  const natural = columns.map((col, i) =>
    Math.max(visibleWidth(headerText(col)), ...rows.map((row) => widest(row[i]?.text ?? ''))),
  );
  const wordFloor = columns.map((col, i) =>
    col.min === undefined
      ? (natural[i] ?? 0)
      : Math.min(
          natural[i] ?? 0,
          Math.max(longestWord(headerText(col)), ...rows.map((row) => longestWord(row[i]?.text ?? ''))),
        ),
  );
  const shown = columns.map(() => true);
  const total = (widths: readonly number[]) => {
    const kept = widths.filter((_, i) => shown[i]);
    return kept.reduce((a, b) => a + b, 0) + GAP * Math.max(0, kept.length - 1);
  };
  const dropped: number[] = [];
  for (const header of drop) {
    if (total(natural) <= width) break;
    const i = columns.findIndex((col, j) => shown[j] && col.header === header);
    if (i < 0) continue;
    shown[i] = false;
    dropped.push(i);
  }
  // A column left out early may fit again once later ones are out: the more important first.
  for (const i of dropped.reverse()) {
    shown[i] = true;
    if (total(natural) > width) shown[i] = false;
  }
  const widths = [...natural];
  let excess = total(widths) - width;
  const lastFloor = (i: number) => Math.min(wordFloor[i] ?? 0, columns[i]?.min ?? 0);
  for (const floorOf of [(i: number) => wordFloor[i], lastFloor]) {
    while (excess > 0) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        const floor = floorOf(i);
        if (!shown[i] || columns[i]?.min === undefined || floor === undefined || (widths[i] ?? 0) <= floor) continue;
        if (widest < 0 || (widths[i] ?? 0) > (widths[widest] ?? 0)) widest = i;
      }
      if (widest < 0) break;
      widths[widest] = (widths[widest] ?? 0) - 1;
      excess--;
    }
  }
  return widths.map((w, i) => (shown[i] ? w : null));
}

function widest(text: string): number {
  return Math.max(0, ...text.split('\n').map(visibleWidth));
}

function pad(text: string, width: number, align: Column['align']): string {
  const room = ' '.repeat(Math.max(0, width - visibleWidth(text)));
  return align === 'right' ? room + text : text + room;
}

/** One table row (header or data) as lines: each cell wrapped to its column's width. */
function renderRow(texts: readonly string[], columns: readonly Column[], widths: readonly number[]): string[] {
  const wrapped = texts.map((text, i) => wrapLines(text, widths[i] ?? 1));
  const height = Math.max(1, ...wrapped.map((lines) => lines.length));
  const lines: string[] = [];
  for (let l = 0; l < height; l++) {
    lines.push(
      wrapped
        .map((cellLines, i) => pad(cellLines[l] ?? '', widths[i] ?? 0, columns[i]?.align))
        .join(' '.repeat(GAP))
        .trimEnd(),
    );
  }
  return lines;
}

export function renderTable(
  allColumns: readonly Column[],
  allRows: readonly Cell[][],
  width: number,
  c: Colors,
  options: TableOptions = {},
): string {
  const fitted = fitColumns(allColumns, allRows, width, options.drop);
  const keep = (_: unknown, i: number) => fitted[i] !== null;
  const columns = allColumns.filter(keep);
  const widths = fitted.filter((w): w is number => w !== null);
  const lines = renderRow(columns.map(headerText), columns, widths).map((line) => c.bold(line));
  for (const [r, row] of allRows.entries()) {
    lines.push(
      ...renderRow(
        row.filter(keep).map((x) => x.text),
        columns,
        widths,
      ),
    );
    const detail = options.details?.[r];
    if (detail !== undefined) lines.push(...wrapLines(DETAIL_INDENT + detail, width, DETAIL_INDENT));
  }
  return `${lines.join('\n')}\n`;
}

/** Piped output: one line per row, fields separated by tabs (tabs and newlines in values become spaces). */
export function renderTsv(rows: readonly Cell[][]): string {
  return rows.map((row) => `${row.map((x) => x.plain.replace(/[\t\n\r]/g, ' ')).join('\t')}\n`).join('');
}
