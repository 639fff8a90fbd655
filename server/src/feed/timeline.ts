/**
 * The boards the feed made recently, for `at()` (the delayed view): each kept for `retainMs`,
 * and thinned once older than a minute, so memory stays flat under fast polling.
 */
import { type Board, type BoardSource, EMPTY_BOARD } from '../board/types';

const THIN_AFTER_MS = 60_000;
const THIN_STEP_MS = 30_000;

export class BoardTimeline {
  private readonly boards: Board[] = [];

  constructor(private readonly retainMs: number) {}

  push(board: Board, at: number): void {
    const timeline = this.boards;
    timeline.push(board);
    const horizon = at - this.retainMs;
    // Keep the newest board at or before the horizon: it is the board as it stood then.
    let drop = 0;
    while (drop + 1 < timeline.length && (timeline[drop + 1] as Board).fetchedAt <= horizon) drop++;
    if (drop > 0) timeline.splice(0, drop);
    // Older than a minute, one board per THIN_STEP_MS is kept: a delayed view then gets a
    // board up to that much older (never fresher).
    const thinBefore = at - THIN_AFTER_MS;
    let kept = 0;
    for (let i = 1; i < timeline.length; i++) {
      const b = timeline[i] as Board;
      const next = timeline[i + 1];
      const dropIt =
        b.fetchedAt < thinBefore &&
        next !== undefined &&
        next.fetchedAt < thinBefore &&
        b.fetchedAt - (timeline[kept] as Board).fetchedAt < THIN_STEP_MS;
      if (!dropIt) timeline[++kept] = b;
    }
    timeline.length = Math.min(timeline.length, kept + 1);
  }

  current(): Board {
    return this.boards[this.boards.length - 1] ?? EMPTY_BOARD;
  }

  /** The newest board made at or before `atMs`; the empty board when memory does not reach back. */
  at(atMs: number): Board {
    let lo = 0;
    let hi = this.boards.length - 1;
    let found: Board | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const b = this.boards[mid] as Board;
      if (b.fetchedAt <= atMs) {
        found = b;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found ?? EMPTY_BOARD;
  }

  /** How many boards are held (for tests of the retention and thinning). */
  get size(): number {
    return this.boards.length;
  }
}

/** The feed's boards newer than `afterMs`, oldest first, back to the one standing at `fromMs`. */
export function boardsSince(feed: BoardSource, afterMs: number, fromMs: number): Board[] {
  const boards: Board[] = [];
  let board = feed.current();
  while (board.version > 0 && board.fetchedAt > afterMs) {
    boards.push(board);
    if (board.fetchedAt <= fromMs) break;
    board = feed.at(board.fetchedAt - 1);
  }
  return boards.reverse();
}
