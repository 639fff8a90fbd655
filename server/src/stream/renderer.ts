/**
 * The stream's changes made where the boards are made (the ingest worker): each new board
 * diffed with the one before by the hub's own window (window.ts), its events
 * rendered once into the rows the log keeps (rendered.ts), appended to the stored log and
 * handed to whoever sends the board on, so the API thread's streams send these bytes instead
 * of rendering them again.
 */
import type { Board, BoardSource } from '../board/types';
import type { StreamEncoder } from './encode';
import type { StreamLog } from './log';
import { loggedRows, type RenderedChange } from './rendered';
import { ChangeWindow } from './window';

/** Rendered changes kept for their sender at most (it takes each as its board is sent). */
const MAX_UNSENT = 64;

export class StreamRenderer {
  /**
   * The changes as the hub's window makes them (the same diff and the same rule across missed
   * boards, so the ids N.k are the hub's), holding only the newest.
   */
  private readonly window: ChangeWindow;
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
    this.window = new ChangeWindow({ retainMs: 0, maxEvents: 0 }, [source.current()]);
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
    const change = this.window.push(board);
    if (change === undefined || change === 'gap') return;
    const rows = loggedRows(change, this.encoder as StreamEncoder, 0, change.events.length);
    this.unsent.set(change.version, { version: change.version, previousVersion: change.previousVersion, rows });
    for (const version of this.unsent.keys()) if (this.unsent.size > MAX_UNSENT) this.unsent.delete(version);
    this.log?.appendRendered(change, rows);
  }
}
