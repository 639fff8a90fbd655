/** A player is shown under one name in a game, however each book spells it. */
import { describe, expect, it } from 'vitest';
import { playerKey } from '../../src/books/names';
import { newSlateLine, type SlateGame } from '../../src/books/types';
import { BoardMerger, type BookView, type QuotedLine } from '../../src/feed/merge';

const START = Date.parse('2026-11-22T00:30:00Z');

function game(id: string): SlateGame {
  return {
    id,
    sport: 'nba',
    homeTeam: 'Denver Nuggets',
    awayTeam: 'Los Angeles Lakers',
    homeKnown: true,
    startMs: START,
    state: 'pre',
  };
}

function line(gameId: string, player: string, stat: string, value: number): QuotedLine {
  const l = newSlateLine({ gameId, player, playerKey: playerKey(player, 'Denver Nuggets'), stat, line: value });
  return { ...l, updatedAt: START - 3_600_000 };
}

describe('display names across books', () => {
  it('uses the first-ranked book spelling for every stat of the player, even where only the other book posts', () => {
    const views: BookView[] = [
      {
        book: 'prizepicks',
        fetchedAt: START,
        games: [game('pp_1')],
        lines: [line('pp_1', 'Nikola Jokic', 'pra', 48.5)],
      },
      {
        book: 'underdog',
        fetchedAt: START,
        games: [game('ud_1')],
        lines: [line('ud_1', 'Nikola Jokić', 'pra', 48.5), line('ud_1', 'Nikola Jokić', 'points', 27.5)],
      },
    ];
    const [merged] = new BoardMerger().merge(views, () => START).games;
    expect(merged?.props.map((p) => [p.player, p.stat, p.bookCount])).toEqual([
      ['Nikola Jokic', 'points', 1],
      ['Nikola Jokic', 'pra', 2],
    ]);
  });
});
