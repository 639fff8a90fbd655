/**
 * PrizePicks in-game values through the feed core: running values from PrizePicks' own box
 * scores (combos summed), the game's clock and score, a suspended line leaving the board and
 * coming back (recorded in line history as a pull, then a post), and the fresher book's live
 * value when both books report one. Payloads in the real formats (liveFixtures.ts).
 */
import type { Book } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import type { Board } from '../../src/board/types';
import { ADAPTERS } from '../../src/books';
import { FeedCore } from '../../src/feed/core';
import type { HistoryGame, LineChange, LineHistoryStore } from '../../src/history/lineHistory';
import { gameOf } from '../../src/views/encode';
import { type LiveMoment, prizePicksWnbaLive, underdogWnbaLive } from './liveFixtures';

const silent = { info() {}, warn() {}, error() {} };

function feed(books: Book[]) {
  const cycles: LineChange[][] = [];
  const history = {
    async record(cycle: { games: readonly HistoryGame[]; changes: readonly LineChange[] }) {
      cycles.push([...cycle.changes]);
    },
  } as unknown as LineHistoryStore;
  const core = new FeedCore({ books, history, logger: silent, retainMs: 60_000, now: () => 0 });
  const poll = async (at: number, payloads: Partial<Record<Book, unknown>>): Promise<Board> => {
    for (const [book, payload] of Object.entries(payloads) as [Book, unknown][]) {
      core.applyPart(book, 'wnba', ADAPTERS[book].parse(payload), at);
    }
    await core.commit(Object.keys(payloads) as Book[], at);
    return core.current();
  };
  return { poll, cycles };
}

/** Each prop as "player stat line (value)". */
const props = (board: Board) =>
  board.games.flatMap((g) => g.props.map((p) => `${p.player} ${p.stat} ${p.line} (${p.liveValue})`));

const moment = (over: Partial<LiveMoment>): LiveMoment => ({
  period: 2,
  clock: '05:00',
  score: { home: 28, away: 30 },
  box: {
    'Allisha Gray': { Points: 10, Rebounds: 3, FantasyScore: 18.4 },
    'Brittney Sykes': { Points: 4, Assists: 3, Steals: 1 },
  },
  projections: [
    { id: '1', player: 'Allisha Gray', stat: 'Points', line: 18.5, status: 'in_progress', score: 10 },
    { id: '2', player: 'Allisha Gray', stat: 'Pts+Rebs', line: 24.5, status: 'in_progress', score: 13 },
    { id: '3', player: 'Allisha Gray', stat: 'Fantasy Score', line: 33.5, status: 'in_progress', score: 18.4 },
    { id: '4', player: 'Brittney Sykes', stat: 'Points', line: 13.5, status: 'in_progress', score: 4 },
    // Nothing recorded yet for Citron: her box score is empty and her points are 0.
    { id: '5', player: 'Sonia Citron', stat: 'Points', line: 12.5, status: 'in_progress', score: 0 },
  ],
  ...over,
});

describe('PrizePicks in-game board', () => {
  it('gives running values from its box scores, and the clock and score from the game', async () => {
    const { poll } = feed(['prizepicks']);
    const board = await poll(1_000, { prizepicks: prizePicksWnbaLive(moment({})) });
    expect(props(board)).toEqual([
      'Allisha Gray fantasy_points 33.5 (18.4)',
      'Allisha Gray points 18.5 (10)',
      'Allisha Gray pts_rebs 24.5 (13)',
      'Brittney Sykes points 13.5 (4)',
      'Sonia Citron points 12.5 (0)',
    ]);
    const [game] = board.games;
    expect(game).toMatchObject({
      sport: 'wnba',
      homeTeam: 'Washington Mystics',
      awayTeam: 'Atlanta Dream',
      state: 'live',
      clock: 'Q2 5:00',
      score: { home: 28, away: 30 },
    });
    expect(game?.props.every((p) => p.gameState === 'live' && p.gameClock === 'Q2 5:00')).toBe(true);
    expect(gameOf(game as Board['games'][number]).score).toEqual({ home: 28, away: 30 });
  });

  it('takes a suspended line off the board and puts it back when it resumes, both in line history', async () => {
    const { poll, cycles } = feed(['prizepicks']);
    await poll(1_000, { prizepicks: prizePicksWnbaLive(moment({})) });
    const live = moment({}).projections;
    const suspended = live.map((p) => (p.player === 'Brittney Sykes' ? { ...p, status: 'suspended' as const } : p));
    const paused = await poll(2_000, {
      prizepicks: prizePicksWnbaLive(
        moment({
          clock: '03:12',
          box: { 'Allisha Gray': { Points: 12, Rebounds: 3, FantasyScore: 20.4 }, 'Brittney Sykes': { Points: 4 } },
          projections: suspended,
        }),
      ),
    });
    expect(props(paused)).toEqual([
      'Allisha Gray fantasy_points 33.5 (20.4)',
      'Allisha Gray points 18.5 (12)',
      'Allisha Gray pts_rebs 24.5 (15)',
      'Sonia Citron points 12.5 (0)',
    ]);
    const resumed = live.map((p) => (p.player === 'Brittney Sykes' ? { ...p, line: 12.5 } : p));
    const back = await poll(3_000, { prizepicks: prizePicksWnbaLive(moment({ projections: resumed })) });
    expect(props(back)).toContain('Brittney Sykes points 12.5 (4)');
    const sykes = cycles.map((c) => c.filter((x) => x.player === 'Brittney Sykes').map((x) => [x.at, x.line]));
    expect(sykes).toEqual([[[1_000, 13.5]], [[2_000, null]], [[3_000, 12.5]]]);
  });

  it('prefers the live value that changed most recently when both books report one', async () => {
    const { poll } = feed(['prizepicks', 'underdog']);
    const gray = (points: number) =>
      moment({
        box: { 'Allisha Gray': { Points: points } },
        projections: [{ id: '1', player: 'Allisha Gray', stat: 'Points', line: 18.5, status: 'in_progress', score: 0 }],
      });
    const value = (b: Board) => b.games[0]?.props[0]?.liveValue;
    const both = (pp: number, ud: number) => ({
      prizepicks: prizePicksWnbaLive(gray(pp)),
      underdog: underdogWnbaLive([['Allisha Gray', 'points', 18.5, ud]]),
    });
    expect((await poll(1_000, both(10, 10))).games).toHaveLength(1);
    expect(value(await poll(2_000, both(12, 10)))).toBe(12); // PrizePicks is ahead
    expect(value(await poll(3_000, both(12, 12)))).toBe(12); // Underdog caught up
    // PrizePicks corrects a basket away: its value changed last, so it wins though lower.
    expect(value(await poll(4_000, both(10, 12)))).toBe(10);
    expect(value(await poll(5_000, both(10, 13)))).toBe(13);
  });
});
