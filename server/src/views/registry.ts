/**
 * Which board a caller sees: the current one for realtime tiers, the board as it stood
 * `delayMs` ago for delayed ones. Views are kept per board object and view kind, so each
 * board is serialized once per kind however often it is read.
 */
import type { Board, BoardSource, ProjectionSource } from '../board/types';
import type { PropOdds } from '../odds';
import { BoardViews, type ViewKind, viewKindKey } from './boardViews';

/** How often a delayed board is rebuilt from history: staler by at most this, never fresher. */
export const DELAYED_REFRESH_MS = 1_000;

export class ViewRegistry {
  private readonly byBoard = new WeakMap<Board, Map<string, BoardViews>>();
  private readonly delayedBoards = new Map<number, { builtAt: number; board: Board }>();

  constructor(
    private readonly source: BoardSource,
    private readonly projections?: ProjectionSource,
    /** Probabilities and edges for the views of tiers that have them. */
    private readonly odds?: PropOdds,
  ) {}

  views(kind: ViewKind, delayMs: number, nowMs = Date.now()): BoardViews {
    const board = kind.delayed ? this.delayedBoard(delayMs, nowMs) : this.source.current();
    return this.viewsOf(board, kind);
  }

  /** The views of a given board (the stream's boards of past changes), kept like the current one's. */
  viewsOf(board: Board, kind: ViewKind): BoardViews {
    let kinds = this.byBoard.get(board);
    if (!kinds) {
      kinds = new Map();
      this.byBoard.set(board, kinds);
    }
    const key = (kind as { key?: string }).key ?? viewKindKey(kind);
    let views = kinds.get(key);
    if (!views) {
      views = new BoardViews(board, kind, this.projections, this.odds);
      kinds.set(key, views);
    }
    return views;
  }

  private delayedBoard(delayMs: number, nowMs: number): Board {
    const cached = this.delayedBoards.get(delayMs);
    if (cached && nowMs - cached.builtAt < DELAYED_REFRESH_MS && nowMs >= cached.builtAt) return cached.board;
    let board = this.source.at(nowMs - delayMs);
    // Keep the previous object when history gave the same snapshot, so its views are reused.
    if (cached && cached.board.version === board.version && cached.board.fetchedAt === board.fetchedAt) {
      board = cached.board;
    }
    this.delayedBoards.set(delayMs, { builtAt: nowMs, board });
    return board;
  }
}
