/**
 * The board an API process serves, rebuilt from ingest's change log (board/changes.ts) in
 * order, with the recent boards `at()` reads. Transport-agnostic: the embedded server feeds
 * it from its ingest worker's MessagePort (cluster/ingestThread.ts), every replica on Redis
 * from the board stream (replication.ts), so both serve boards made by this same code.
 */
import { applyChange, type BoardChange } from '../board/changes';
import { type Board, type BookHealth, EMPTY_BOARD } from '../board/types';
import type { FeedStatus } from '../feed/follow';

/** History kept in memory (and in Redis's stream): the free tier's 10-minute delay, plus margin. */
export const DEFAULT_RETENTION_MS = 15 * 60_000;

export interface BoardReplicaOptions {
  retentionMs?: number;
  /** The board's clock (the boards' fetchedAt run on it): what the retention is counted on. */
  now?: () => number;
  /** A listener that threw. */
  onError?: (err: unknown) => void;
}

export class BoardReplica {
  private board: Board = EMPTY_BOARD;
  /** Boards in log order, the oldest first; pruned to the retention. */
  private history: Board[] = [];
  private bookHealth: BookHealth[] = [];
  /** Ingest's status as last reported; empty until the log's source reports one (Redis reports health only). */
  private reported: Partial<FeedStatus> = {};
  private readonly listeners = new Set<(board: Board) => void>();

  constructor(private readonly opts: BoardReplicaOptions = {}) {}

  current(): Board {
    return this.board;
  }

  at(atMs: number): Board {
    for (let i = this.history.length - 1; i >= 0; i--) {
      const board = this.history[i] as Board;
      if (board.fetchedAt <= atMs) return board;
    }
    return EMPTY_BOARD;
  }

  subscribe(listener: (board: Board) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  health(): BookHealth[] {
    return this.bookHealth;
  }

  /** Until ingest says, ready means having a board (a Redis replica's readiness). */
  ready(): boolean {
    return this.reported.ready ?? this.board.version > 0;
  }

  /** Ingest's status as last reported, each field as last given (FeedStatus's further flags too). */
  status(): Partial<FeedStatus> {
    return this.reported;
  }

  /** Ingest's status, which changes without a board change (attempts, errors, readiness). */
  setStatus(status: Partial<FeedStatus>): void {
    this.reported = { ...this.reported, ...status };
    if (status.health) this.bookHealth = status.health;
  }

  /**
   * Applies one change and tells subscribers (unless `notify` is false: a rebuild tells them
   * once, at its end). False when it is a delta on a board this replica does not have: the
   * caller resyncs, or (rebuilding) skips it until a keyframe.
   */
  apply(change: BoardChange, notify = true): boolean {
    const board = applyChange(this.history.at(-1), change);
    if (!board) return false;
    this.history.push(board);
    this.prune();
    this.board = board;
    this.bookHealth = change.health;
    if (notify) this.emit();
    return true;
  }

  /**
   * Rebuilds the history from a whole log (a start, or after a missed change); deltas
   * without their base are skipped until a keyframe. Boards older than the log (this replica
   * saw them live) stay, so `at()` never regresses.
   */
  rebuild(changes: Iterable<BoardChange>): void {
    const known = this.history;
    this.history = [];
    let applied = false;
    for (const change of changes) applied = this.apply(change, false) || applied;
    const oldest = this.history[0];
    if (oldest) this.history = [...known.filter((b) => b.version < oldest.version), ...this.history];
    else this.history = known;
    if (applied) this.emit();
  }

  /** Drops boards older than the retention, keeping the one `at()` needs at its edge. */
  private prune(): void {
    const cutoff = (this.opts.now ?? Date.now)() - (this.opts.retentionMs ?? DEFAULT_RETENTION_MS);
    let drop = 0;
    while (drop + 1 < this.history.length && (this.history[drop + 1] as Board).fetchedAt <= cutoff) drop++;
    if (drop > 0) this.history.splice(0, drop);
  }

  private emit(): void {
    for (const listener of this.listeners) {
      try {
        listener(this.board);
      } catch (err) {
        this.opts.onError?.(err);
      }
    }
  }
}
