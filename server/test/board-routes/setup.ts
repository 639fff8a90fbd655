/**
 * The board routes over hand-built data: two boards (20 minutes ago, for the delayed free
 * tier, and now), line history and game logs written through the books' own stores into a
 * SQLite file, the game-log index and the movers' opening lines over them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Board, BoardProp } from '../../src/board/types';
import { createGameLogStore } from '../../src/history/gameLogs';
import { createLineHistoryStore, type HistoryGame, type LineChange } from '../../src/history/lineHistory';
import { createSettlementStore } from '../../src/history/settlement';
import type { GameLog } from '../../src/history/types';
import type { BoardData } from '../../src/queries/deps';
import { GameLogIndex, gameLogCount } from '../../src/stats/gameLogIndex';
import { type Db, openDb } from '../../src/store/db';
import { OpeningLines } from '../../src/views/openingLines';
import { buildTestApp, type TestApp } from '../helpers/app';
import { buildBoard, type GameSpec, TestBoardSource } from '../helpers/board';

export const NOW = Date.parse('2026-11-22T01:00:00.000Z');
export const MIN = 60_000;

export interface BoardRoutesApp extends TestApp {
  db: Db;
  board: Board;
  past: Board;
  boardData: BoardData;
  /** The prop of `player`/`stat` on the current board (its playerKey is what logs and history use). */
  prop(player: string, stat: string): BoardProp;
}

export interface Seed {
  /** The board now; the board 20 minutes ago is `past ?? current`. */
  current: GameSpec[];
  past?: GameSpec[];
  history?: (app: Pick<BoardRoutesApp, 'prop'>) => { games: HistoryGame[]; changes: LineChange[] };
  logs?: (app: Pick<BoardRoutesApp, 'prop'>) => GameLog[];
}

export async function buildBoardRoutesApp(seed: Seed): Promise<BoardRoutesApp> {
  const past = buildBoard(seed.past ?? seed.current, NOW - 20 * MIN);
  const board = buildBoard(seed.current, NOW - 1_000);
  const prop = (player: string, stat: string) => {
    for (const g of board.games) for (const p of g.props) if (p.player === player && p.stat === stat) return p;
    throw new Error(`no ${player} ${stat} on the test board`);
  };

  const dir = mkdtempSync(join(tmpdir(), 'propsfeed-board-routes-'));
  const db = await openDb({ dataDir: dir });
  const history = createLineHistoryStore(db);
  const gameLogStore = createGameLogStore(db);
  if (seed.history) await history.record(seed.history({ prop }));
  if (seed.logs) await gameLogStore.append(seed.logs({ prop }));
  const gameLogs = new GameLogIndex(gameLogStore, gameLogCount(db));
  await gameLogs.reload();

  const source = new TestBoardSource(past, board);
  const openings = new OpeningLines(source, history);
  openings.start();
  const boardData: BoardData = { gameLogs, history, openings, settlements: createSettlementStore(db) };
  const app = await buildTestApp({ source, projections: gameLogs, boardData, now: () => NOW });
  return {
    ...app,
    db,
    board,
    past,
    boardData,
    prop,
    async close(opts) {
      openings.stop();
      await app.close(opts);
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `values` as one player's logs for a stat, newest first, one game every other day back from 2026-11-20. */
export function logsOf(
  prop: BoardProp,
  sport: GameLog['sport'],
  stat: string,
  values: number[],
  opts: { team?: string; opponent?: (i: number) => string; home?: (i: number) => boolean } = {},
): GameLog[] {
  return values.map((value, i) => ({
    sport,
    player: prop.player,
    playerKey: prop.playerKey,
    team: opts.team ?? prop.team ?? 'team',
    opponent: opts.opponent?.(i) ?? `Opponent ${i}`,
    home: opts.home?.(i) ?? i % 2 === 0,
    date: new Date(Date.parse('2026-11-20T00:00:00Z') - i * 2 * 86_400_000).toISOString().slice(0, 10),
    stat,
    value,
    source: 'import',
  }));
}
