/**
 * The stream's resume window: the board changes of the last `retainMs` (at most `maxEvents`
 * events), each linked to the board it was computed from, so a client resuming after an id
 * gets exactly the changes after it. An id the window does not reach (older than kept, or
 * one this replica never saw) is answered with a fresh snapshot marked as a reset. The window
 * also gives each delay its cursor: the newest board old enough for that delay.
 */

import { type Board, EMPTY_BOARD } from '../board/types';
import { type BoardChange, boardChange } from '../views/boardChanges';

/** Where a client stands: after event `index` (1-based; 0 = all) of the change to board `version`. */
export interface StreamPosition {
  version: number;
  index: number;
}

export function parseEventId(id: string): StreamPosition | undefined {
  const match = /^(\d{1,16})(?:\.(\d{1,9}))?$/.exec(id.trim());
  if (!match) return undefined;
  return { version: Number(match[1]), index: match[2] === undefined ? 0 : Number(match[2]) };
}

export interface ChangeWindowOptions {
  /** How long changes are kept: at least the longest delay (free: 10 minutes) plus margin. */
  retainMs: number;
  /** Most events kept, whatever their age. */
  maxEvents: number;
}

export class ChangeWindow {
  /** The board before the oldest kept change. */
  private base: Board;
  private readonly changes: BoardChange[] = [];
  private events = 0;

  constructor(
    private readonly opts: ChangeWindowOptions,
    /** Boards already made, oldest first (the feed's retained history), the first being the base. */
    history: readonly Board[] = [],
  ) {
    // The oldest board held is the base. Boards the feed thinned out of its history leave
    // gaps here, which no client has ids from: these changes were never streamed.
    this.base = history[0] ?? EMPTY_BOARD;
    for (const board of history.slice(1)) this.append(board);
  }

  /** The newest board. */
  get board(): Board {
    return this.changes.at(-1)?.board ?? this.base;
  }

  /**
   * Takes a new board: its change; undefined when it is not newer than the last; 'gap' when
   * boards in between were missed (a replica catching up on the replicated stream). A diff
   * across a gap would give ids `N.k` other replicas gave to other events, so the window
   * starts over from the board instead, and streams get a snapshot (id N, the same everywhere).
   */
  push(board: Board): BoardChange | 'gap' | undefined {
    const last = this.board;
    if (board.version <= last.version) return undefined;
    if (board.version !== last.version + 1 && last.version !== 0) {
      this.changes.length = 0;
      this.events = 0;
      this.base = board;
      return 'gap';
    }
    return this.append(board);
  }

  private append(board: Board): BoardChange | undefined {
    const last = this.board;
    if (board.version <= last.version) return undefined;
    const change = boardChange(last, board);
    this.changes.push(change);
    this.events += change.events.length;
    this.prune(board.fetchedAt);
    return change;
  }

  private prune(newestAt: number): void {
    const horizon = newestAt - this.opts.retainMs;
    let drop = 0;
    let events = this.events;
    while (drop < this.changes.length - 1) {
      const oldest = this.changes[drop] as BoardChange;
      if (oldest.board.fetchedAt >= horizon && events <= this.opts.maxEvents) break;
      events -= oldest.events.length;
      drop++;
    }
    if (drop === 0) return;
    this.base = (this.changes[drop - 1] as BoardChange).board;
    this.changes.splice(0, drop);
    this.events = events;
  }

  /** The board of this version, when the window holds it. */
  boardOf(version: number): Board | undefined {
    if (version === this.base.version) return this.base;
    const at = this.indexOf(version);
    return at === undefined ? undefined : (this.changes[at] as BoardChange).board;
  }

  /** The newest board (the base or a change's) whose fetchedAt is at or before `atMs`. */
  boardAt(atMs: number): Board | undefined {
    for (let i = this.changes.length - 1; i >= 0; i--) {
      const change = this.changes[i] as BoardChange;
      if (change.board.fetchedAt <= atMs) return change.board;
    }
    return this.base.fetchedAt <= atMs ? this.base : undefined;
  }

  /**
   * The changes after `position` up to board `until` (inclusive), with how many events of the
   * first to skip; undefined when the window cannot tell exactly (a reset is due).
   */
  after(position: StreamPosition, until: number): { changes: BoardChange[]; skip: number } | undefined {
    if (position.version === this.base.version && position.index === 0) {
      return { changes: this.upTo(0, until), skip: 0 };
    }
    const at = this.indexOf(position.version);
    if (at === undefined) return undefined;
    if (position.index === 0) return { changes: this.upTo(at + 1, until), skip: 0 };
    return { changes: this.upTo(at, until), skip: position.index };
  }

  private upTo(from: number, until: number): BoardChange[] {
    const out: BoardChange[] = [];
    for (let i = from; i < this.changes.length; i++) {
      const change = this.changes[i] as BoardChange;
      if (change.version > until) break;
      out.push(change);
    }
    return out;
  }

  private indexOf(version: number): number | undefined {
    let lo = 0;
    let hi = this.changes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = (this.changes[mid] as BoardChange).version;
      if (v === version) return mid;
      if (v < version) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
}
