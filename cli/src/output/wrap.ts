/**
 * Text fitted to a width: the one wrap every line of prose (headings, notes, messages, a row's
 * workings) and every narrowed table cell goes through. Breaks fall between words; a word is
 * broken only when it is wider than the whole width. Colour codes take no width, and a colour
 * that spans a break is closed at the end of the line and opened again on the next.
 */
import { stripVTControlCharacters } from 'node:util';

/** Columns a string takes on a terminal (colour codes take none). */
export function visibleWidth(text: string): number {
  return [...stripVTControlCharacters(text)].length;
}

/** The widest word of a text: the narrowest it wraps to without breaking a word. */
export function longestWord(text: string): number {
  let widest = 0;
  for (const word of stripVTControlCharacters(text).split(/\s+/)) widest = Math.max(widest, [...word].length);
  return widest;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what it looks for
const CODE = /\u001b\[[0-9;]*m/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what it looks for
const CODES = /\u001b\[([0-9;]*)m/g;

/** A word in pieces of at most `width` visible characters (colour codes kept with what follows them). */
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let taken = 0;
  for (let i = 0; i < word.length; ) {
    CODE.lastIndex = i;
    const code = CODE.exec(word);
    if (code) {
      piece += code[0];
      i += code[0].length;
      continue;
    }
    const ch = String.fromCodePoint(word.codePointAt(i) ?? 0);
    if (taken === width) {
      pieces.push(piece);
      piece = '';
      taken = 0;
    }
    piece += ch;
    taken++;
    i += ch.length;
  }
  pieces.push(piece);
  return pieces;
}

/**
 * One paragraph (no newline) in lines of at most `width`; continuation lines start with
 * `indent`. The spaces between words stay as they are, except at a break, where they go.
 */
function wrapParagraph(paragraph: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  // A paragraph's own leading spaces (an indented line) stay on its first line.
  const lead = /^ */.exec(paragraph)?.[0] ?? '';
  const parts = paragraph.slice(lead.length).split(/( +)/);
  let line = lead;
  let used = lead.length;
  let empty = true;
  const newLine = () => {
    lines.push(line);
    line = indent;
    used = indent.length;
  };
  for (let p = 0; p < parts.length; p += 2) {
    const word = parts[p] ?? '';
    const space = p > 0 ? (parts[p - 1] ?? '') : '';
    const w = visibleWidth(word);
    if (!empty && used + space.length + w <= width) {
      line += space + word;
      used += space.length + w;
      continue;
    }
    if (!empty) newLine();
    const room = Math.max(1, width - used);
    const pieces = w > room ? breakWord(word, room) : [word];
    for (const [i, piece] of pieces.entries()) {
      if (i > 0) newLine();
      line += piece;
      used += visibleWidth(piece);
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** The colour codes still open after a line: opened and not yet closed. */
function openCodes(open: string[], line: string): string[] {
  let now = open;
  for (const [code, params = ''] of line.matchAll(CODES)) {
    const n = Number(params.split(';')[0] || 0);
    if (n === 0) now = [];
    else if (CLOSES[n] !== undefined) {
      const closes = CLOSES[n];
      now = now.filter((c) => !closes.includes(Number(/\[(\d+)/.exec(c)?.[1])));
    } else now = [...now, code];
  }
  return now;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** SGR close codes and the codes each closes. */
const CLOSES: Record<number, number[]> = {
  22: [1, 2],
  23: [3],
  24: [4],
  27: [7],
  28: [8],
  29: [9],
  39: [...range(30, 38), ...range(90, 97)],
  49: [...range(40, 48), ...range(100, 107)],
};

/**
 * `text` in lines of at most `width` columns, broken between words; newlines in the text stay
 * line breaks, and lines it continues start with `indent`.
 */
export function wrapLines(text: string, width: number, indent = ''): string[] {
  const lines = text.split('\n').flatMap((p) => wrapParagraph(p, Math.max(1, width), indent));
  let open: string[] = [];
  return lines.map((line) => {
    const reopened = open.join('') + line;
    open = openCodes(open, line);
    return open.length > 0 ? `${reopened}\u001b[0m` : reopened;
  });
}

/** As `wrapLines`, joined: the lines of a paragraph ready to print (no final newline). */
export function wrap(text: string, width: number, indent = ''): string {
  return wrapLines(text, width, indent).join('\n');
}
