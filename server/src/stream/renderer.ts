/**
 * The stream's changes made where the boards are made (the ingest worker): each new board
 * diffed with the one before, as the API thread's hub diffs them (window.ts), its events
 * rendered once into the rows the log keeps (rendered.ts), appended to the stored log and
 * handed to whoever sends the board on, so the API thread's streams send these bytes instead
 * of rendering them again.
 */
import type { Board, BoardSource } from '../feed/types';
import { boardChange } from '../views/boardChanges';
import type { StreamEncoder } from './encode';
import type { StreamLog } from './log';
import { loggedRows, type RenderedChange } from './rendered';

/** Rendered changes kept for their sender at most (it takes each as its board is sent). */
const MAX_UNSENT = 64;

export class StreamRenderer {
  private last: Board;
  /** Rendered changes not yet taken by their sender, by version. */
  private readonly unsent = new Map<number, RenderedChange>();
  /** Boards that came before the views could render them (the game-log index loading), in order. */
  private waiting: Board[] | undefined = [];
  private encoder: StreamEncoder | undefined;
  private readonly unsubscribe: () => void;

  /**
   * Follows `source` from its current board, rendering once `start` gives it its encoder.
   * Subscribe it before whatever sends the boards on (listeners run in order), so a board's
   * rows are ready when it is sent.
   */
  constructor(
    source: BoardSource,
    private readonly log?: StreamLog,
  ) {
    this.last = source.current();
    this.unsubscribe = source.subscribe((board) => this.take(board));
  }

  /** Renders with `encoder` (its views loaded) from now on, the boards that came meanwhile first. */
  start(encoder: StreamEncoder): void {
    this.encoder = encoder;
    const waiting = this.waiting ?? [];
    this.waiting = undefined;
    for (const board of waiting) this.render(board);
  }

  /** The rows of the change to board `version`, for its sender: once, and undefined when not rendered. */
  takeRendered(version: number): RenderedChange | undefined {
    const rendered = this.unsent.get(version);
    this.unsent.delete(version);
    return rendered;
  }

  stop(): void {
    this.unsubscribe();
  }

  private take(board: Board): void {
    if (this.waiting) this.waiting.push(board);
    else this.render(board);
  }

  private render(board: Board): void {
    const previous = this.last;
    this.last = board;
    // As ChangeWindow.push: no change across missed boards (ids N.k would not be the hub's).
    if (board.version <= previous.version) return;
    if (board.version !== previous.version + 1 && previous.version !== 0) return;
    const encoder = this.encoder as StreamEncoder;
    const change = boardChange(previous, board);
    this.unsent.set(change.version, {
      version: change.version,
      previousVersion: change.previousVersion,
      rows: loggedRows(change, encoder, 0, change.events.length),
    });
    for (const version of this.unsent.keys()) if (this.unsent.size > MAX_UNSENT) this.unsent.delete(version);
    this.log?.append(change, encoder);
  }
}
