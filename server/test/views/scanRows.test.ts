/**
 * Scan answers are assembled from row JSON kept between boards (per prop object) and
 * serialized lazily up to the rows asked for: the bytes must always be exactly the JSON of
 * the answer's value, on every board, whatever was asked before.
 */
import type { Projection } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import type { Board, ProjectionSource } from '../../src/board/types';
import { EntryBook, PropOdds } from '../../src/odds';
import { BoardViews, viewKindOf } from '../../src/views/boardViews';
import { buildBoard, type GameSpec } from '../helpers/board';

const games: GameSpec[] = [
  {
    id: 'pp_1',
    live: true,
    props: [
      { player: 'Ann Live', stat: 'points', line: 20.5, overOdds: -130, underOdds: 105 },
      { player: 'Bea Live', stat: 'rebounds', line: 7.5, books: ['prizepicks'] },
    ],
  },
  {
    id: 'pp_2',
    startTime: '2026-11-22T03:00:00.000Z',
    props: [
      { player: 'Cat "Quote" Pre', stat: 'assists', line: 6.5, overOdds: 120, underOdds: -150 },
      { player: 'Dee Pre', stat: 'points', line: 24.5 },
      { player: 'Eve Pre', stat: 'threes', line: 2.5, books: ['underdog'] },
    ],
  },
];

const projection: Projection = { value: 21.3, sampleN: 10, method: 'last 10 games', marketKey: 'nba:points' };
const projections: ProjectionSource = {
  get: (_sport, playerKey) => (playerKey.startsWith('ann') || playerKey.startsWith('dee') ? projection : undefined),
};

/** The next board as the merger makes it: the same game and prop objects, a later fetchedAt. */
const later = (board: Board, ms: number): Board => ({
  ...board,
  version: board.version + 1,
  fetchedAt: board.fetchedAt + ms,
});

describe('scan answers', () => {
  for (const kind of [viewKindOf(false, true, true), viewKindOf(false, false), viewKindOf(true, false)]) {
    it(`are the exact JSON of their value on every board (${kind.key})`, () => {
      const odds = new PropOdds(new EntryBook());
      let board = buildBoard(games, Date.parse('2026-11-22T01:00:00Z'));
      for (let round = 0; round < 3; round++) {
        const views = new BoardViews(board, kind, projections, odds);
        // A small prefix first, then the whole sport: the lazy serialization must extend correctly.
        for (const limit of [1, 2, 100]) {
          const answer = views.scan('nba', null, limit);
          expect(answer.body.toString()).toBe(JSON.stringify(answer.value));
          expect(answer.value.count).toBe(Math.min(limit, kind.liveLines ? 5 : 3));
          for (const row of answer.value.rows) expect(row.fetchedAt).toBe(board.fetchedAt);
        }
        const points = views.scan('nba', 'points', 100);
        expect(points.body.toString()).toBe(JSON.stringify(points.value));
        board = later(board, 5_000);
      }
    });
  }

  it('shows a changed prop, not the kept JSON of the one it replaced', () => {
    const kind = viewKindOf(false, true);
    const first = buildBoard(games, Date.parse('2026-11-22T01:00:00Z'));
    expect(new BoardViews(first, kind).scan('nba', null, 100).body.toString()).toContain('"line":24.5');
    const moved = games.map((g) => ({
      ...g,
      props: g.props?.map((p) => (p.player === 'Dee Pre' ? { ...p, line: 25.5 } : p)),
    }));
    const second = buildBoard(moved, first.fetchedAt + 5_000);
    const answer = new BoardViews(second, kind).scan('nba', null, 100);
    expect(answer.body.toString()).toBe(JSON.stringify(answer.value));
    expect(answer.body.toString()).toContain('"line":25.5');
    expect(answer.body.toString()).not.toContain('"line":24.5');
  });
});
