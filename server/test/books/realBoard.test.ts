/**
 * What each real recorded payload in ../shared/books puts on the board, through the adapter
 * and the merge: games, props, live values, and the stats left unmapped; and the two
 * recordings of one day (PrizePicks and Underdog, 2023-05-24) merged together. Prints the
 * table, and holds the catalog to its rule: every stat the books post on 10 or more standard
 * lines maps to a stat key or is listed in UNSUPPORTED_STATS.
 */
import { describe, expect, it } from 'vitest';
import type { Board } from '../../src/board/types';
import { ADAPTERS } from '../../src/books';
import type { ParseResult } from '../../src/books/types';
import { BoardMerger, type BookView } from '../../src/feed/merge';
import { readSharedBook, SHARED_BOOKS, SHARED_BOOKS_NOTE, sharedBookFiles } from '../helpers/sharedBooks';

const parse = (file: string): ParseResult =>
  ADAPTERS[file.startsWith('underdog') ? 'underdog' : 'prizepicks'].parse(readSharedBook(file));

const view = (r: ParseResult): BookView => ({
  book: r.slate.book,
  fetchedAt: 1,
  games: r.slate.games,
  lines: r.slate.lines.map((l) => ({ ...l, updatedAt: 1 })),
});

const board = (results: ParseResult[]): Board => new BoardMerger().merge(results.map(view), () => 0);

function summary(b: Board) {
  const props = b.games.flatMap((g) => g.props);
  return {
    games: b.games.length,
    props: props.length,
    onBothBooks: props.filter((p) => p.bookCount === 2).length,
    liveValues: props.filter((p) => p.liveValue !== undefined).length,
  };
}

describe.skipIf(!SHARED_BOOKS)(`the board from each real payload (${SHARED_BOOKS_NOTE})`, () => {
  it('puts these games and props on the board, and leaves these stats unmapped', () => {
    const rows = sharedBookFiles().map((file) => {
      const r = parse(file);
      return { file, ...summary(board([r])), unmapped: r.unmapped };
    });
    const sameDay = summary(board([parse('prizepicks-tjjerome-1.json'), parse('underdog-tjjerome-1.json')]));
    const lines = rows.map(
      (r) =>
        `${r.file}: ${r.games} games, ${r.props} props, ${r.liveValues} live values; unmapped: ${
          Object.entries(r.unmapped)
            .map(([stat, n]) => `${stat} ×${n}`)
            .join(', ') || 'none'
        }`,
    );
    lines.push(
      `both books of 2023-05-24 merged: ${sameDay.games} games, ${sameDay.props} props, ${sameDay.onBothBooks} on both books`,
    );
    console.log(lines.join('\n'));

    expect(rows.map(({ file, games, props, liveValues }) => [file, games, props, liveValues])).toEqual([
      ['prizepicks-35eternal-wnba-live-2025-06-15.json', 2, 43, 6],
      ['prizepicks-Czar68-1.json', 1, 102, 0],
      ['prizepicks-chuydabol-1.json', 0, 0, 0],
      ['prizepicks-tjjerome-1.json', 15, 216, 0],
      ['underdog-tjjerome-1.json', 24, 395, 0],
    ]);
    expect(sameDay).toEqual({ games: 24, props: 548, onBothBooks: 63, liveValues: 0 });
  });

  it('maps every stat posted on 10 or more standard lines, or the catalog says why not', () => {
    const unmapped = new Map<string, number>();
    for (const file of sharedBookFiles()) {
      for (const [stat, n] of Object.entries(parse(file).unmapped)) unmapped.set(stat, (unmapped.get(stat) ?? 0) + n);
    }
    expect([...unmapped].filter(([, n]) => n >= 10)).toEqual([]);
    // What is left is still counted (it shows in /readyz): a handful of rare NFL stats.
    expect(Object.fromEntries(unmapped)).toEqual({
      'nfl:Assists': 6,
      'nfl:PAT Made': 1,
      'nfl:Punts': 2,
      'nfl:Punts Inside 20': 2,
      'nfl:Sacks Taken': 2,
    });
  });
});
