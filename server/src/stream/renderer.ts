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

export class StreamRenderer {
  private last: Board;
  private latest: RenderedChange | undefined;
  private readonly unsubscribe: () => void;

  /**
   * Follows `source` from its current board. Subscribe it before whatever sends the boards on
   * (listeners run in order), so a board's rows are ready when it is sent.
   */
  constructor(
    source: BoardSource,
    private readonly encoder: StreamEncoder,
    private readonly log?: StreamLog,
  ) {
    this.last = source.current();
    this.unsubscribe = source.subscribe((board) => this.take(board));
  }

  /** The rows of the change to board `version`, while it is the newest board. */
  renderedFor(version: number): RenderedChange | undefined {
    return this.latest?.version === version ? this.latest : undefined;
  }

  stop(): void {
    this.unsubscribe();
  }

  private take(board: Board): void {
    const previous = this.last;
    this.last = board;
    this.latest = undefined;
    // As ChangeWindow.push: no change across missed boards (ids N.k would not be the hub's).
    if (board.version <= previous.version) return;
    if (board.version !== previous.version + 1 && previous.version !== 0) return;
    const change = boardChange(previous, board);
    this.latest = {
      version: change.version,
      previousVersion: change.previousVersion,
      rows: loggedRows(change, this.encoder, 0, change.events.length),
    };
    this.log?.append(change, this.encoder);
  }
}
