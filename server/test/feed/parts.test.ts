/**
 * The feed core's parts, each on its own: interning, book health, the timeline of past
 * boards, the line-history writer and the game-log writer (the core's tests drive them together).
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_BOARD } from '../../src/board/types';
import type { SlateGame, SlateLine } from '../../src/books/types';
import { BookHealthRecord } from '../../src/feed/bookHealth';
import { GameLogWriter } from '../../src/feed/gameLogWriter';
import { LineHistoryWriter } from '../../src/feed/historyWriter';
import { internLines, lineKey, quoteOfPoint, sameGame } from '../../src/feed/intern';
import { type FeedLogger, SILENT_LOGGER } from '../../src/feed/logger';
import { BoardTimeline } from '../../src/feed/timeline';
import type { HistoryGame, LineChange, LineHistoryStore } from '../../src/history/lineHistory';
import type { GameLog, GameLogStore } from '../../src/history/types';
import { buildBoard } from '../helpers/board';

const line = (player: string, value: number, extra: Partial<SlateLine> = {}): SlateLine => ({
  gameId: 'ud_1',
  player,
  playerKey: `${player.toLowerCase()}|team`,
  team: 'team',
  stat: 'points',
  line: value,
  overOdds: -110,
  underOdds: -110,
  ...extra,
});

function logged() {
  const lines: { level: string; o: object; msg?: string }[] = [];
  const logger: FeedLogger = {
    info: (o, msg) => lines.push({ level: 'info', o, ...(msg ? { msg } : {}) }),
    warn: (o, msg) => lines.push({ level: 'warn', o, ...(msg ? { msg } : {}) }),
    error: (o, msg) => lines.push({ level: 'error', o, ...(msg ? { msg } : {}) }),
  };
  return { logger, lines };
}

describe('interning', () => {
  it('keeps unchanged quotes (and prev itself), times new prices and reports moves and pulls', () => {
    const reports: [string, number | null][] = [];
    const report = (l: SlateLine, value: number | null) => reports.push([l.player, value]);
    const first = internLines([], [line('A', 10.5), line('B', 20.5)], 100, report);
    expect(first.map((q) => [q.player, q.line, q.updatedAt])).toEqual([
      ['A', 10.5, 100],
      ['B', 20.5, 100],
    ]);
    expect(reports).toEqual([
      ['A', 10.5],
      ['B', 20.5],
    ]);

    reports.length = 0;
    expect(internLines(first, [line('A', 10.5), line('B', 20.5)], 200, report)).toBe(first);
    // A reorder is no change either.
    expect(internLines(first, [line('B', 20.5), line('A', 10.5)], 200, report)).toBe(first);
    expect(reports).toEqual([]);

    // A photo change keeps the quote's time and is not a move; a new line is; a missing one is pulled.
    const next = internLines(first, [line('A', 10.5, { photoUrl: 'x' }), line('C', 5.5)], 300, report);
    expect(next.map((q) => [q.player, q.updatedAt])).toEqual([
      ['A', 100],
      ['C', 300],
    ]);
    expect(reports).toEqual([
      ['C', 5.5],
      ['B', null],
    ]);
  });

  it('takes a resumed stored point as the previous quote: the same price is no move', () => {
    const stored: LineChange = {
      book: 'underdog',
      sport: 'nba',
      gameId: 'ud_1',
      playerKey: 'a|team',
      player: 'A',
      team: 'team',
      stat: 'points',
      at: 50,
      line: 10.5,
      overOdds: -110,
      underOdds: -110,
    };
    const reports: unknown[] = [];
    const resumed = new Map([[lineKey(stored), stored]]);
    const [q] = internLines([], [line('A', 10.5)], 100, (l) => reports.push(l), resumed);
    expect(q?.updatedAt).toBe(50);
    expect(reports).toEqual([]);
    expect(quoteOfPoint({ ...stored, line: 10.5 })).toMatchObject({ line: 10.5, updatedAt: 50, playerId: undefined });
  });

  it('compares games field by field', () => {
    const g: SlateGame = {
      id: 'ud_1',
      sport: 'nba',
      homeTeam: 'H',
      awayTeam: 'A',
      homeKnown: true,
      startMs: 1,
      state: 'pre',
    };
    expect(sameGame(g, { ...g })).toBe(true);
    expect(sameGame(g, { ...g, state: 'live', clock: 'Q1 12:00' })).toBe(false);
  });
});

describe('book health', () => {
  it('counts parses, failed and clean cycles, and logs a failed one', () => {
    const { logger, lines } = logged();
    const health = new BookHealthRecord('prizepicks');
    expect(health.attempted).toBe(false);
    health.parsed({ slate: { book: 'prizepicks', games: [], lines: [] }, skipped: 2, unmapped: { Dunks: 1 } });
    health.parsed({ slate: { book: 'prizepicks', games: [], lines: [] }, skipped: 1, unmapped: { Dunks: 2 } });
    health.failed('nba', { kind: 'timeout', message: 'no answer in 10 s' } as never);
    expect(health.endCycle(1_000, logger)).toBe(false);
    expect(health.endCycle(2_000, logger)).toBe(true);
    health.failed('nfl', { kind: 'http', message: '503' } as never);
    expect(health.endCycle(3_000, logger)).toBe(false);
    health.fetched(2_000);
    const snapshot = health.snapshot();
    expect(snapshot).toEqual({
      source: 'prizepicks',
      fetchedAt: 2_000,
      lastAttemptAt: 3_000,
      lastError: 'nfl: http: 503',
      errorCount: 2,
      consecutiveFailures: 1,
      skippedItems: 3,
      unmappedStats: { Dunks: 3 },
    });
    expect(health.attempted).toBe(true);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'book fetch failed; keeping its last good slate'],
      ['warn', 'book fetch failed; keeping its last good slate'],
    ]);
    // A snapshot is a copy.
    snapshot.unmappedStats.Dunks = 99;
    expect(health.snapshot().unmappedStats).toEqual({ Dunks: 3 });
  });
});

describe('board timeline', () => {
  it('answers the newest board at or before a time; empty before the first', () => {
    const timeline = new BoardTimeline(60_000);
    expect(timeline.current()).toBe(EMPTY_BOARD);
    const a = buildBoard([], 1_000);
    const b = buildBoard([], 2_000);
    timeline.push(a, 1_000);
    timeline.push(b, 2_000);
    expect(timeline.current()).toBe(b);
    expect(timeline.at(999)).toBe(EMPTY_BOARD);
    expect(timeline.at(1_500)).toBe(a);
    expect(timeline.at(5_000)).toBe(b);
  });

  it('keeps the board standing at the retention horizon and thins boards older than a minute', () => {
    const timeline = new BoardTimeline(10 * 60_000);
    const boards = Array.from({ length: 60 }, (_, i) => buildBoard([], i * 5_000));
    for (const board of boards) timeline.push(board, board.fetchedAt);
    const now = 59 * 5_000;
    // The last minute is whole: one board per 5 s.
    expect(timeline.at(now - 30_000)).toBe(boards[53]);
    // Older ones: one per 30 s, never a fresher board than asked for.
    expect(timeline.size).toBeLessThan(30);
    const old = timeline.at(100_000);
    expect(old.fetchedAt).toBeLessThanOrEqual(100_000);
    expect(100_000 - old.fetchedAt).toBeLessThan(30_000);
    // Past retention only the board standing at the horizon stays.
    timeline.push(buildBoard([], now + 20 * 60_000), now + 20 * 60_000);
    expect(timeline.at(now + 10 * 60_000)).toBe(boards[59]);
    expect(timeline.at(now)).toBe(boards[59]);
    expect(timeline.at(now - 1)).toBe(EMPTY_BOARD);
  });
});

describe('line history writer', () => {
  const board = buildBoard([{ id: 'ud_1', aliases: ['pp_9'], props: [{ player: 'A', stat: 'points', line: 10.5 }] }]);
  const slateGame = (id: string): SlateGame => ({
    id,
    sport: 'nba',
    homeTeam: 'Denver Nuggets',
    awayTeam: 'Los Angeles Lakers',
    homeKnown: true,
    startMs: 7,
    state: 'pre',
  });
  const ownerOf = (id: string) =>
    id === 'ud_1'
      ? { book: 'underdog' as const, game: slateGame(id) }
      : id === 'pp_9'
        ? { book: 'prizepicks' as const, game: slateGame(id) }
        : undefined;

  it('writes each game once (by merged id and alias), then only the changes', async () => {
    const cycles: { games: readonly HistoryGame[]; changes: readonly LineChange[] }[] = [];
    const store = { record: async (c: (typeof cycles)[number]) => void cycles.push(c) } as unknown as LineHistoryStore;
    const writer = new LineHistoryWriter(store, SILENT_LOGGER);
    await writer.write(board, [], ownerOf);
    await writer.write(board, [], ownerOf);
    expect(cycles.map((c) => c.games.map((g) => [g.id, g.mergedId, g.book]))).toEqual([
      [
        ['ud_1', 'ud_1', 'underdog'],
        ['pp_9', 'ud_1', 'prizepicks'],
      ],
      [],
    ]);
  });

  it('logs a failed write and writes its games again with the next board', async () => {
    const { logger, lines } = logged();
    let fail = true;
    const written: string[][] = [];
    const store = {
      async record(c: { games: readonly HistoryGame[] }) {
        if (fail) throw new Error('database down');
        written.push(c.games.map((g) => g.id));
      },
    } as unknown as LineHistoryStore;
    const writer = new LineHistoryWriter(store, logger);
    await writer.write(board, [], ownerOf);
    expect(lines).toEqual([
      { level: 'error', o: { err: 'Error: database down', changes: 0 }, msg: 'line history write failed' },
    ]);
    fail = false;
    await writer.write(board, [], ownerOf);
    expect(written).toEqual([['ud_1', 'pp_9']]);
  });
});

describe('game log writer', () => {
  const finalBoard = () => {
    const board = buildBoard([
      { id: 'ud_1', live: true, props: [{ player: 'A', stat: 'points', line: 10.5, team: 'Denver Nuggets' }] },
    ]);
    const game = board.games[0];
    if (game) game.state = 'final';
    return board;
  };

  it('records each final game once, one log per prop with a final value and a team', async () => {
    const appended: GameLog[][] = [];
    const store = { append: async (logs: GameLog[]) => appended.push(logs) } as unknown as GameLogStore;
    const writer = new GameLogWriter(store, SILENT_LOGGER);
    await writer.recordFinals(buildBoard([{ id: 'ud_2', props: [{ player: 'B', stat: 'points', line: 3 }] }]));
    await writer.recordFinals(finalBoard());
    await writer.recordFinals(finalBoard());
    expect(appended).toEqual([
      [
        {
          sport: 'nba',
          player: 'A',
          playerKey: 'a|Denver Nuggets',
          team: 'Denver Nuggets',
          opponent: 'Los Angeles Lakers',
          home: true,
          date: '2026-11-22',
          stat: 'points',
          value: 3,
          source: 'recorded',
        },
      ],
    ]);
  });

  it('logs a failed write instead of throwing', async () => {
    const { logger, lines } = logged();
    const store = {
      append: async () => {
        throw new Error('disk full');
      },
    } as unknown as GameLogStore;
    await new GameLogWriter(store, logger).recordFinals(finalBoard());
    expect(lines).toEqual([{ level: 'error', o: { err: 'Error: disk full', logs: 1 }, msg: 'game log write failed' }]);
  });
});
