/** Where a command writes: a table or TSV on stdout, notes only on a terminal, messages on stderr. */
import { type Colors, createColors, shouldColor } from './color';
import { printableLines } from './printable';
import { type Cell, type Column, renderTable, renderTsv } from './table';

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

  /** Rows as a table on a terminal, as TSV when piped. */
  table(columns: Column[], rows: Cell[][]): string {
    const mode = this.terminal ? 'terminal' : 'piped';
    const keep = columns.map((col) => col.only === undefined || col.only === mode);
    const shown = columns.filter((_, i) => keep[i]);
    const cells = rows.map((row) => row.filter((_, i) => keep[i]));
    return this.terminal ? renderTable(shown, cells, this.width, this.c) : renderTsv(cells);
  }

  /** A line for the reader of a terminal ("Showing 20 of 412"); nothing when piped. */
  note(text: string): string {
    return this.terminal ? `${this.c.dim(printableLines(text))}\n` : '';
  }

  /** A heading above a table on a terminal; nothing when piped. */
  heading(text: string): string {
    return this.terminal ? `${this.c.bold(printableLines(text))}\n` : '';
  }

  /** Progress, confirmations and errors: stderr, so piped stdout stays data only. */
  message(text: string): void {
    this.stderr.write(`${printableLines(text)}\n`);
  }
}

/** The API's JSON, as it came. */
export function toJson(body: unknown): string {
  return `${JSON.stringify(body, null, 2)}\n`;
}
