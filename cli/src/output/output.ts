/** Where a command writes: a table or TSV on stdout, notes only on a terminal, messages on stderr. */
import { type Colors, createColors, shouldColor } from './color';
import { printableLines } from './printable';
import { type Cell, type Column, renderTable, renderTsv, type TableOptions } from './table';
import { wrap } from './wrap';

export interface Stream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export class Output {
  /** stdout is a terminal: tables, colour, local times. Otherwise: TSV, ISO times, no decoration. */
  readonly terminal: boolean;
  readonly c: Colors;
  readonly width: number;

  constructor(
    readonly stdout: Stream,
    readonly stderr: Stream,
    env: NodeJS.ProcessEnv,
  ) {
    this.terminal = stdout.isTTY === true;
    this.c = createColors(shouldColor(this.terminal, env));
    this.width = Math.max(40, stdout.columns || 100);
  }

  /** Rows as a table fitted to the terminal, as TSV when piped. */
  table(columns: Column[], rows: Cell[][], options: TableOptions = {}): string {
    const mode = this.terminal ? 'terminal' : 'piped';
    const keep = columns.map((col) => col.only === undefined || col.only === mode);
    const shown = columns.filter((_, i) => keep[i]);
    const cells = rows.map((row) => row.filter((_, i) => keep[i]));
    return this.terminal ? renderTable(shown, cells, this.width, this.c, options) : renderTsv(cells);
  }

  /** Prose for the reader of a terminal, wrapped between words to its width; as it is when piped. */
  prose(text: string): string {
    return `${this.terminal ? wrap(printableLines(text), this.width) : printableLines(text)}\n`;
  }

  /** A line for the reader of a terminal ("Showing 20 of 412"), wrapped to its width; nothing when piped. */
  note(text: string): string {
    return this.terminal ? `${this.c.dim(wrap(printableLines(text), this.width))}\n` : '';
  }

  /** A heading above a table on a terminal, wrapped to its width; nothing when piped. */
  heading(text: string): string {
    return this.terminal ? `${this.c.bold(wrap(printableLines(text), this.width))}\n` : '';
  }

  /** Progress, confirmations and errors: stderr (wrapped when it is a terminal), so piped stdout stays data only. */
  message(text: string): void {
    const safe = printableLines(text);
    const width = this.stderr.isTTY === true ? Math.max(40, this.stderr.columns || 100) : undefined;
    this.stderr.write(`${width === undefined ? safe : wrap(safe, width)}\n`);
  }
}

/** The API's JSON, as it came. */
export function toJson(body: unknown): string {
  return `${JSON.stringify(body, null, 2)}\n`;
}
