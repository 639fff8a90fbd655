/**
 * A game's state from the book to the board: Underdog's status and scores read by the adapter,
 * the board ordered live, then pre-game, then final, a final game's score kept, and the time a
 * game went final remembered from the first board that showed it (what `/games` counts from).
 */
import { describe, expect, it } from 'vitest';
import { parseUnderdog } from '../../src/books/underdog';
import { BoardMerger, type BookView } from '../../src/feed/merge';

const MIN = 60_000;

interface UdGame {
  id: number;
  title: string;
  start: string;
  status: 'scheduled' | 'in_progress' | 'final';
  score?: [home: number, away: number];
  period?: number;
  clock?: string;
}

/** An Underdog payload (its real shape) with one points line per game. */
function underdog(games: UdGame[]): object {
  return {
    games: games.map((g) => ({
      id: g.id,
      sport_id: 'NBA',
      title: g.title,
      scheduled_at: g.start,
      status: g.status,
      // Underdog sends 0-0 before the start.
      home_team_score: g.score?.[0] ?? 0,
      away_team_score: g.score?.[1] ?? 0,
      period: g.period ?? 0,
      match_progress: g.clock ?? null,
      type: 'Game',
    })),
    players: games.map((g) => ({ id: `p${g.id}`, first_name: 'Player', last_name: String(g.id), sport_id: 'NBA' })),
    appearances: games.map((g) => ({ id: `a${g.id}`, player_id: `p${g.id}`, match_id: g.id })),
    over_under_lines: games.map((g) => ({
      id: `l${g.id}`,
      stat_value: '20.5',
      status: 'active',
      live_event_stat: g.status === 'scheduled' ? null : { value: '12' },
      over_under: { appearance_stat: { appearance_id: `a${g.id}`, stat: 'points' } },
      options: [],
    })),
    solo_games: [],
  };
}

const view = (payload: object, fetchedAt: number): BookView => {
  const { slate } = parseUnderdog(payload);
  return { book: 'underdog', fetchedAt, games: slate.games, lines: slate.lines.map((l) => ({ ...l, updatedAt: 1 })) };
};

const T0 = Date.parse('2026-11-22T05:00:00Z');
const EARLY: UdGame = { id: 1, title: 'MIL @ BOS', start: '2026-11-22T02:00:00Z', status: 'in_progress' };
const LATE: UdGame = { id: 2, title: 'ATL @ MIA', start: '2026-11-22T04:00:00Z', status: 'in_progress' };
const TOMORROW: UdGame = { id: 3, title: 'NYK @ ORL', start: '2026-11-23T00:00:00Z', status: 'scheduled' };

describe('game states on the board', () => {
  it('reads Underdog’s scores once a game is under way, not its 0-0 before the start', () => {
    const { slate } = parseUnderdog(
      underdog([
        { ...EARLY, status: 'final', score: [112, 104] },
        { ...LATE, score: [40, 38], period: 2, clock: '5:31' },
        TOMORROW,
      ]),
    );
    expect(slate.games.map((g) => [g.id, g.state, g.score, g.clock])).toEqual([
      ['ud_1', 'final', { home: 112, away: 104 }, undefined],
      ['ud_2', 'live', { home: 40, away: 38 }, 'Q2 5:31'],
      ['ud_3', 'pre', undefined, undefined],
    ]);
  });

  it('orders live, then pre-game, then final games, and keeps a final game’s score and when it went final', () => {
    const merger = new BoardMerger();
    const first = merger.merge([view(underdog([EARLY, LATE, TOMORROW]), T0)], () => 0);
    expect(first.games.map((g) => [g.id, g.state])).toEqual([
      ['ud_1', 'live'],
      ['ud_2', 'live'],
      ['ud_3', 'pre'],
    ]);
    expect(first.games[0]?.finalAt).toBeUndefined();

    const over: UdGame = { ...EARLY, status: 'final', score: [112, 104] };
    const second = merger.merge([view(underdog([over, LATE, TOMORROW]), T0 + MIN)], () => 0);
    expect(second.games.map((g) => [g.id, g.state])).toEqual([
      ['ud_2', 'live'],
      ['ud_3', 'pre'],
      ['ud_1', 'final'],
    ]);
    const final = second.gameById.get('ud_1');
    expect(final).toMatchObject({ live: false, score: { home: 112, away: 104 }, finalAt: T0 + MIN });
    expect(final?.clock).toBeUndefined();
    expect(final?.props[0]).toMatchObject({ gameState: 'final', liveValue: 12 });

    // Later boards, the final game rebuilt with a new line, still date its end from the first.
    const moved = underdog([over, LATE, TOMORROW]) as { over_under_lines: { stat_value: string }[] };
    (moved.over_under_lines[0] as { stat_value: string }).stat_value = '21.5';
    const third = merger.merge([view(moved, T0 + 2 * MIN)], () => 0);
    expect(third.gameById.get('ud_1')).toMatchObject({ state: 'final', finalAt: T0 + MIN });
    expect(third.gameById.get('ud_1')).not.toBe(final);
  });
});
