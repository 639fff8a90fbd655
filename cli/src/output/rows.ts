/** Cells shared by the commands that show props, games and times. */
import { type Book, EVENT_ID_PREFIX, type PlayerProp, type ScanRow } from '@propsfeed/contract';
import {
  type Clock,
  formatLocalTime,
  formatNumber,
  formatOdds,
  formatStart,
  type GameWhen,
  plainNumber,
  plainOdds,
} from './format';
import type { Output } from './output';
import { type Cell, type Column, cell } from './table';

/** The columns every prop table shows: stat, line, the price of each side and the book count. */
export const LINE_COLUMNS: readonly Column[] = [
  { header: 'stat' },
  { header: 'line', align: 'right' },
  { header: 'over', align: 'right' },
  { header: 'under', align: 'right' },
  { header: 'books', align: 'right', optional: true },
];

/** The cells of LINE_COLUMNS for one prop. */
export function lineCells(p: PlayerProp, out: Output): Cell[] {
  return [
    cell(p.stat),
    numberCell(p.line, out),
    oddsCell(p.overOdds, out),
    oddsCell(p.underOdds, out),
    cell(String(p.bookCount)),
  ];
}

export function oddsCell(odds: number | undefined, out: Output): Cell {
  return cell(formatOdds(odds, out.c), plainOdds(odds));
}

export function numberCell(value: number | null | undefined, out: Output): Cell {
  return cell(formatNumber(value, out.c), plainNumber(value));
}

/** Terminal: LIVE with the clock, FINAL, or the local time and how far off. Piped: the ISO time. */
export function startCell(game: GameWhen, clock: Clock, out: Output): Cell {
  return cell(formatStart(game, clock, out.c), game.startTime);
}

/** Where a row's game stands, from the row's own fields. */
export function rowWhen(r: Pick<ScanRow, 'startTime' | 'gameState' | 'gameClock'>): GameWhen {
  return { startTime: r.startTime, state: r.gameState, clock: r.gameClock };
}

export function timeCell(iso: string, clock: Clock): Cell {
  return cell(formatLocalTime(iso, clock), iso);
}

/** The books behind a game: its own source, then the books of its aliases. */
export function booksOf(game: { source: Book; aliases?: string[] | undefined }): Book[] {
  const books: Book[] = [game.source];
  for (const alias of game.aliases ?? []) {
    const book = (Object.keys(EVENT_ID_PREFIX) as Book[]).find((b) => alias.startsWith(EVENT_ID_PREFIX[b]));
    if (book && !books.includes(book)) books.push(book);
  }
  return books;
}

/** "Showing 20 of 412 rows". */
export function showing(shown: number, total: number, noun: string): string {
  return `Showing ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${noun}`;
}
