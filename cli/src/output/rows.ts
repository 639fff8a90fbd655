/** Cells shared by the commands that show props, games and times. */
import {
  type Book,
  type BookLine,
  type Edge,
  EVENT_ID_PREFIX,
  type PlayerProp,
  type ScanRow,
  SPORTS,
  type SportId,
  shortTeamName,
} from '@propsfeed/contract';
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
import { printable } from './printable';
import { type Cell, type Column, cell } from './table';

/**
 * The columns every prop table shows: stat, line, the price of each side and the book count.
 * When the books post different lines, LINE shows the best line for each side with its book
 * (`o4.5 pp / u5 ud`: the over is best at PrizePicks 4.5, the under at Underdog 5) and OVER and
 * UNDER the prices at those books; piped, `lines` lists every book's line and odds.
 */
export const LINE_COLUMNS: readonly Column[] = [
  { header: 'stat' },
  { header: 'line', align: 'right' },
  { header: 'over', align: 'right' },
  { header: 'under', align: 'right' },
  { header: 'books', align: 'right' },
];

/** Columns that close a prop table's piped rows (after every existing field, so scripts keep their positions). */
export const PIPED_PROP_COLUMNS: readonly Column[] = [
  { header: 'team', only: 'piped' },
  { header: 'lines', only: 'piped' },
];

/** A book as a table names it for short: its event-id prefix (`pp`, `ud`). */
export function bookShort(book: Book): string {
  return EVENT_ID_PREFIX[book].replace(/_$/, '');
}

/** Where each side is best when the books post different lines; undefined when they agree. */
export function bestByBook(p: PlayerProp): { over: BookLine; under: BookLine } | undefined {
  const books = p.books ?? [];
  const first = books[0];
  if (!first || books.every((b) => b.line === first.line)) return undefined;
  const price = (odds: number | undefined) => odds ?? Number.NEGATIVE_INFINITY;
  let over = first;
  let under = first;
  for (const b of books) {
    if (b.line < over.line || (b.line === over.line && price(b.overOdds) > price(over.overOdds))) over = b;
    if (b.line > under.line || (b.line === under.line && price(b.underOdds) > price(under.underOdds))) under = b;
  }
  return { over, under };
}

/** The cells of LINE_COLUMNS for one prop. */
export function lineCells(p: PlayerProp, out: Output): Cell[] {
  const split = bestByBook(p);
  const count = cell(String(p.bookCount));
  if (!split)
    return [cell(p.stat), numberCell(p.line, out), oddsCell(p.overOdds, out), oddsCell(p.underOdds, out), count];
  const { over, under } = split;
  const lines = `o${plainNumber(over.line)} ${bookShort(over.source)} / u${plainNumber(under.line)} ${bookShort(under.source)}`;
  return [
    cell(p.stat),
    cell(out.c.yellow(lines), plainNumber(p.line)),
    cell(formatOdds(over.overOdds, out.c), plainOdds(p.overOdds)),
    cell(formatOdds(under.underOdds, out.c), plainOdds(p.underOdds)),
    count,
  ];
}

/** The cells of PIPED_PROP_COLUMNS: the player's team and, when the books differ, each book's line and odds. */
export function pipedPropCells(p: PlayerProp): Cell[] {
  const lines = bestByBook(p)
    ? (p.books ?? [])
        .map((b) => {
          const odds =
            b.overOdds === undefined && b.underOdds === undefined
              ? ''
              : ` ${plainOdds(b.overOdds) || '-'}/${plainOdds(b.underOdds) || '-'}`;
          return `${b.source} ${plainNumber(b.line)}${odds}`;
        })
        .join(', ')
    : '';
  return [cell(p.team ?? ''), cell(lines)];
}

/** The player's team: its abbreviation on a terminal where the league has one (BOS), its full name piped. */
export function teamCell(sport: SportId, team: string | undefined): Cell {
  return team === undefined ? cell('') : cell(printable(shortTeamName(sport, team)), team);
}

/** A game in few letters for a line of text: "NYK @ ORL" in the US leagues, the full names elsewhere. */
export function shortMatchup(game: { sport: SportId; awayTeam: string; homeTeam: string }): string {
  return `${shortTeamName(game.sport, game.awayTeam)} @ ${shortTeamName(game.sport, game.homeTeam)}`;
}

/** A player with their team when the books name it: "Tariq Pitman · New York Knicks". */
export function playerWithTeam(p: Pick<PlayerProp, 'player' | 'team'>): string {
  return p.team ? `${p.player} · ${p.team}` : p.player;
}

/** The EDGE column of a prop table: its cells name the side, line and book, then the edge. */
export const EDGE_COLUMN: Column = { header: 'edge', unit: '% pts' };

/** The legend under a table with edges: what the number is, in which unit. */
export const EDGE_LEGEND =
  "Edge: the estimated chance of the side minus the entry type's per-leg breakeven, in percentage points (% pts); pp PrizePicks, ud Underdog";

/** An edge in percentage points, signed: "+2.0", "-3.7". */
export function edgePoints(edge: number): string {
  return `${edge > 0 ? '+' : ''}${(edge * 100).toFixed(1)}`;
}

/**
 * --why's column: the workings of each row's edge, the one sentence the API gives with it
 * (inputs, weights, mean, chance, breakeven). Piped output has it as a column; a terminal
 * prints it under the row (`whyDetails`).
 */
export const WHY_COLUMN = { header: 'why', only: 'piped' } as const;

/** A row's cell under WHY_COLUMN. */
export function whyCell(r: Pick<ScanRow, 'edge'>): Cell {
  return cell(r.edge?.workings ?? '');
}

/** What a terminal prints under each row with --why: nothing under a row without an edge. */
export function whyDetails(rows: ReadonlyArray<Pick<ScanRow, 'edge'>>): Array<string | undefined> {
  return rows.map((r) => (r.edge ? printable(r.edge.workings ?? 'no workings given') : undefined));
}

/** A sport as a heading names it ("NBA Basketball"); every sport when none is given. */
export function sportName(sport: SportId | null | undefined): string {
  if (sport === null || sport === undefined) return 'all sports';
  return SPORTS.find((s) => s.id === sport)?.name ?? sport;
}

/** A row's edge as a table names it: side, line, book and edge in points ("over 4.5 pp +2.0"). */
export function edgeCell(edge: Edge | undefined, out: Output): Cell {
  if (!edge) return cell(out.c.dim('–'), '');
  const text = `${edge.side} ${plainNumber(edge.line)} ${bookShort(edge.source)} ${edgePoints(edge.edge)}`;
  return cell(
    edge.edge > 0 ? out.c.green(text) : out.c.dim(text),
    `${edge.source} ${edge.side} ${plainNumber(edge.line)} ${edge.edge}`,
  );
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
