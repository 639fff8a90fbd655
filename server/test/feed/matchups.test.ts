/**
 * Never two games for one real matchup: an older-format PrizePicks slate (no home/away) whose
 * derived orientation is the reverse of Underdog's for one game and the same for another, a
 * game one book posts twice, and a real doubleheader. End to end through startFeed with msw
 * serving the books' wire formats, then the merge alone with either book first.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Board } from '../../src/board/types';
import { parsePrizePicks } from '../../src/books/prizepicks';
import type { Slate } from '../../src/books/types';
import { parseUnderdog } from '../../src/books/underdog';
import { BoardMerger, type BookView } from '../../src/feed/merge';
import { type BookFeed, startBookFeed } from './bookFeed';
import { EMPTY_PRIZEPICKS, PP_BASE, UD_BASE } from './fixtures';
import { prizePicksMlbEvening, underdogMlbEvening } from './matchupFixtures';

const server = setupServer(
  http.get(`${PP_BASE}/projections`, ({ request }) =>
    HttpResponse.json(
      new URL(request.url).searchParams.get('league_id') === '2' ? prizePicksMlbEvening() : EMPTY_PRIZEPICKS,
    ),
  ),
  http.get(`${UD_BASE}/v1/over_under_lines`, () => HttpResponse.json(underdogMlbEvening())),
);

let books: BookFeed;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  books = await startBookFeed(Date.parse('2026-11-21T16:00:00Z'));
});
afterAll(async () => {
  await books.close();
  server.close();
});

/** Each game as [away @ home, start, its ids by book, its props as player/stat/bookCount]. */
function summary(board: Board) {
  return board.games.map((g) => ({
    matchup: `${g.awayTeam} @ ${g.homeTeam}`,
    startTime: g.startTime,
    ids: [g.id, ...g.aliases].map((id) => id.slice(0, 3)).sort(),
    props: g.props.map((p) => `${p.player} ${p.stat} ${p.bookCount}`),
  }));
}

const EXPECTED = [
  {
    matchup: 'Detroit Tigers @ Cleveland Guardians',
    startTime: '2026-11-21T17:10:00.000Z',
    ids: ['pp_', 'ud_'],
    props: ['Jose Ramirez hits 2', 'Riley Greene hits 2'],
  },
  {
    // The doubleheader's second game: the same teams hours later stay a game of their own.
    matchup: 'Detroit Tigers @ Cleveland Guardians',
    startTime: '2026-11-21T22:40:00.000Z',
    ids: ['pp_', 'ud_'],
    props: ['Jose Ramirez total_bases 2', 'Riley Greene total_bases 2'],
  },
  {
    // PrizePicks' derived orientation is the reverse of Underdog's here.
    matchup: 'New York Yankees @ Boston Red Sox',
    startTime: '2026-11-21T23:10:00.000Z',
    ids: ['pp_', 'ud_'],
    props: ['Aaron Judge hits 2', 'Aaron Judge total_bases 2', 'Rafael Devers hits 2', 'Rafael Devers total_bases 2'],
  },
  {
    // Posted twice by PrizePicks (00:05 and 00:30): one game, the start Underdog states.
    matchup: 'Houston Astros @ Texas Rangers',
    startTime: '2026-11-22T00:05:00.000Z',
    ids: ['pp_', 'pp_', 'ud_'],
    props: ['Corey Seager hits 2', 'Corey Seager total_bases 2', 'Jose Altuve hits 2', 'Jose Altuve total_bases 2'],
  },
  {
    // The same orientation as Underdog's.
    matchup: 'Chicago Cubs @ Milwaukee Brewers',
    startTime: '2026-11-22T00:10:00.000Z',
    ids: ['pp_', 'ud_'],
    props: [
      'Christian Yelich hits 2',
      'Christian Yelich total_bases 2',
      'Seiya Suzuki hits 2',
      'Seiya Suzuki total_bases 2',
    ],
  },
];

describe('one game per real matchup, through the feed', () => {
  it('merges every posting of a game, whichever way round and however often a book posts it', () => {
    const board = books.feed.current();
    expect(summary(board)).toEqual(EXPECTED);
    // Every id a book posted resolves to its one game.
    for (const game of board.games) for (const id of game.aliases) expect(board.gameById.get(id)).toBe(game);
  });
});

describe('one game per real matchup, in the merge alone', () => {
  const pp = parsePrizePicks(prizePicksMlbEvening()).slate;
  const ud = parseUnderdog(underdogMlbEvening()).slate;
  const view = (slate: Slate): BookView => ({
    book: slate.book,
    fetchedAt: 1,
    games: slate.games,
    lines: slate.lines.map((l) => ({ ...l, updatedAt: 1 })),
  });

  it('gives the same games when Underdog was seen first, under its ids', () => {
    const board = new BoardMerger().merge([view(pp), view(ud)], (id) => (id.startsWith('ud_') ? 0 : 1));
    expect(summary(board)).toEqual(EXPECTED);
    expect(board.games.map((g) => g.id.slice(0, 3))).toEqual(['ud_', 'ud_', 'ud_', 'ud_', 'ud_']);
  });

  it('joins a game Underdog posts twice too, but not a posting hours away', () => {
    // Underdog lists Texas' game a second time, 20 minutes later, with Seager's lines on it.
    const seager = (l: { player: string }) => l.player === 'Corey Seager';
    const texas = ud.games.find((g) => g.id === 'ud_303');
    expect(texas).toBeDefined();
    const twice: Slate = {
      ...ud,
      games: [
        ...ud.games,
        { ...(texas as Slate['games'][number]), id: 'ud_306', startMs: Date.parse('2026-11-22T00:25:00Z') },
      ],
      lines: ud.lines.map((l) => (seager(l) ? { ...l, gameId: 'ud_306' } : l)),
    };
    const board = new BoardMerger().merge([view(pp), view(twice)], () => 0);
    const game = board.gameById.get('ud_306');
    expect(game).toBe(board.gameById.get('ud_303'));
    expect([game?.id, ...(game?.aliases ?? [])].filter((id) => id?.startsWith('ud_')).sort()).toEqual([
      'ud_303',
      'ud_306',
    ]);
    expect(game?.props.every((p) => p.bookCount === 2)).toBe(true);
    expect(board.games).toHaveLength(5);
  });
});
