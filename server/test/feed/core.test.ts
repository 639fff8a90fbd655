/**
 * The feed core's change tracking: only moves of a line or price go to history (with the
 * time), pulled lines are recorded as such, a reordered payload is no change at all.
 */
import { describe, expect, it } from 'vitest';
import type { ParseResult, SlateLine } from '../../src/books/types';
import { FeedCore } from '../../src/feed/core';
import type { HistoryGame, LineChange, LineHistoryStore } from '../../src/history/lineHistory';

const silent = { info() {}, warn() {}, error() {} };

function recorder() {
  const cycles: { games: readonly HistoryGame[]; changes: readonly LineChange[] }[] = [];
  const store = {
    async record(cycle: { games: readonly HistoryGame[]; changes: readonly LineChange[] }) {
      cycles.push(cycle);
    },
  } as unknown as LineHistoryStore;
  return { store, cycles };
}

const line = (player: string, value: number, extra: Partial<SlateLine> = {}): SlateLine => ({
  gameId: 'ud_1',
  player,
  playerKey: `${player.toLowerCase()}|boston celtics`,
  team: 'Boston Celtics',
  stat: 'points',
  line: value,
  overOdds: -110,
  underOdds: -110,
  ...extra,
});

function parsed(lines: SlateLine[]): ParseResult {
  return {
    slate: {
      book: 'underdog',
      games: [
        {
          id: 'ud_1',
          sport: 'nba',
          homeTeam: 'Boston Celtics',
          awayTeam: 'Miami Heat',
          homeKnown: true,
          startMs: 5e6,
          state: 'pre',
        },
      ],
      lines,
    },
    skipped: 0,
    unmapped: {},
  };
}

describe('feed core change tracking', () => {
  it('records opens, moves, price changes and pulls; ignores reorders and non-price changes', async () => {
    const { store, cycles } = recorder();
    const core = new FeedCore({ books: ['underdog'], history: store, logger: silent, retainMs: 60_000, now: () => 0 });
    const cycle = async (at: number, lines: SlateLine[]) => {
      core.applyPart('underdog', 'all', parsed(lines), at);
      return core.commit('underdog', at);
    };

    const first = await cycle(1_000, [line('A', 10.5), line('B', 20.5), line('C', 5.5)]);
    expect(cycles[0]?.changes.map((c) => [c.playerKey, c.line, c.at])).toEqual([
      ['a|boston celtics', 10.5, 1_000],
      ['b|boston celtics', 20.5, 1_000],
      ['c|boston celtics', 5.5, 1_000],
    ]);
    expect(cycles[0]?.games).toEqual([expect.objectContaining({ id: 'ud_1', mergedId: 'ud_1', sport: 'nba' })]);

    // Same lines in another order: no new board, nothing written.
    expect(await cycle(2_000, [line('C', 5.5), line('A', 10.5), line('B', 20.5)])).toBeUndefined();
    expect(core.current()).toBe(first);
    expect(cycles).toHaveLength(1);

    // A photo appears (a new board, no history), A's price moves, C is pulled, D opens.
    const next = await cycle(3_000, [
      line('A', 10.5, { overOdds: -125, underOdds: 105 }),
      line('B', 20.5, { photoUrl: 'https://img.test/b.png' }),
      line('D', 1.5),
    ]);
    expect(next?.version).toBe((first?.version ?? 0) + 1);
    expect(cycles[1]?.changes.map((c) => [c.playerKey, c.line, c.overOdds, c.at])).toEqual([
      ['a|boston celtics', 10.5, -125, 3_000],
      ['d|boston celtics', 1.5, -110, 3_000],
      ['c|boston celtics', null, undefined, 3_000],
    ]);
    const quotes = next?.games[0]?.props.map((p) => [p.player, p.books[0]?.updatedAt]);
    expect(quotes).toEqual([
      ['A', 3_000],
      ['B', 1_000],
      ['D', 3_000],
    ]);
    // The game row is written once, not every cycle.
    expect(cycles[1]?.games).toEqual([]);
  });

  it('resumes from stored points when taking over ingest: records only what moved since', async () => {
    const { store, cycles } = recorder();
    const core = new FeedCore({ books: ['underdog'], history: store, logger: silent, retainMs: 60_000, now: () => 0 });
    const stored = (player: string, at: number, value: number | null): LineChange => ({
      book: 'underdog',
      sport: 'nba',
      gameId: 'ud_1',
      playerKey: `${player.toLowerCase()}|boston celtics`,
      player,
      team: 'Boston Celtics',
      stat: 'points',
      at,
      line: value,
      ...(value === null ? {} : { overOdds: -110, underOdds: -110 }),
    });
    // What the previous leader recorded: A and B posted, C posted, E pulled; a prizepicks
    // point for a book this core does not poll is ignored.
    core.resumeFrom([
      stored('A', 1_000, 10.5),
      stored('B', 1_000, 20.5),
      stored('C', 2_000, 5.5),
      stored('E', 2_500, null),
      { ...stored('F', 1_000, 3.5), book: 'prizepicks' },
    ]);
    // A failed part: the seed is kept for the next, complete, cycle.
    core.failPart('underdog', 'live', { kind: 'timeout', message: 'timed out' });
    core.applyPart('underdog', 'all', parsed([line('A', 10.5), line('B', 21.5)]), 9_000);
    await core.commit('underdog', 9_000);
    expect(cycles[0]?.changes.map((c) => [c.playerKey, c.line, c.at])).toEqual([['b|boston celtics', 21.5, 9_000]]);

    core.applyPart('underdog', 'all', parsed([line('A', 10.5), line('B', 21.5), line('E', 7.5)]), 10_000);
    const board = await core.commit('underdog', 10_000);
    // E re-opened; C, stored as posted and now gone, is recorded as pulled; A is not recorded again.
    expect(cycles[1]?.changes.map((c) => [c.playerKey, c.line, c.at])).toEqual([
      ['e|boston celtics', 7.5, 10_000],
      ['c|boston celtics', null, 10_000],
    ]);
    // A keeps the time it last moved under the previous leader.
    expect(board?.games[0]?.props.map((p) => [p.player, p.books[0]?.updatedAt])).toEqual([
      ['A', 1_000],
      ['B', 9_000],
      ['E', 10_000],
    ]);
  });

  it('keeps every board of the last minute and one per 30 s before, for at()', async () => {
    const core = new FeedCore({ books: ['underdog'], logger: silent, retainMs: 15 * 60_000, now: () => 0 });
    for (let t = 0; t <= 300_000; t += 5_000) {
      core.applyPart('underdog', 'all', parsed([line('A', 10.5 + t / 5_000)]), t);
      await core.commit('underdog', t);
    }
    // Within the last minute: the board of that very poll.
    expect(core.at(290_000).fetchedAt).toBe(290_000);
    expect(core.at(242_000).fetchedAt).toBe(240_000);
    // Older: a board at most 30 s (plus a poll) older than asked, never fresher.
    for (let t = 0; t < 240_000; t += 5_000) {
      const b = core.at(t);
      expect(b.fetchedAt).toBeLessThanOrEqual(t);
      expect(t - b.fetchedAt).toBeLessThan(35_000);
    }
    const distinct = new Set(Array.from({ length: 48 }, (_, i) => core.at(i * 5_000)));
    expect(distinct.size).toBeLessThanOrEqual(240 / 30 + 2);
  });
});
