/**
 * What `props serve` prints on a terminal: whole lines (the banner, log lines as text) and one
 * status line (the start-up's progress) that is redrawn in place and stays below them.
 */
export interface TerminalOut {
  /** A whole line; a status line showing is cleared first and drawn again after it. */
  line(text: string): void;
  /** Shows `text` as the status line (in place on a terminal; else as a line when it changes). */
  status(text: string): void;
  /** Removes the status line. */
  clearStatus(): void;
}

const CLEAR = '\r\x1b[K';

export function terminalOut(out: NodeJS.WritableStream, inPlace: boolean): TerminalOut {
  let shown = '';
  return {
    line(text) {
      out.write(inPlace && shown ? `${CLEAR}${text}\n${shown}` : `${text}\n`);
    },
    status(text) {
      if (text === shown) return;
      shown = text;
      out.write(inPlace ? `${CLEAR}${text}` : `${text}\n`);
    },
    clearStatus() {
      if (inPlace && shown) out.write(CLEAR);
      shown = '';
    },
  };
}
