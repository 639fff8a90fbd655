/**
 * The feed's change log: each board as a keyframe (every game) or a delta (only the games
 * new or changed since the previous change, plus the board's order of ids), numbered by
 * version. Ingest makes it (BoardDiffer); an API process rebuilds the boards from it
 * (cluster/replica.ts), whether it arrives over a worker's MessagePort or a Redis stream.
 */
import { boardsSince } from './timeline';
import type { Board, BoardGame, BoardSource, BookHealth } from './types';

export interface BoardChange {
  version: number;
  /** A delta's base: the version it applies to. Absent on a keyframe. */
  base?: number;
  fetchedAt: number;
  /** Every game id of the board, in board order. */
  order: string[];
  /** The games new or changed since the base; every game in a keyframe. */
  games: BoardGame[];
  health: BookHealth[];
}

/**
 * What ingest reports of itself besides boards. One place to add a flag: a new field here,
 * in `statusOf` and where the replica serves it (cluster/replica.ts).
 */
export interface FeedStatus {
  /** BoardSource.ready(): every configured book has produced a first board (or failed trying). */
  ready: boolean;
  health: BookHealth[];
}

export function statusOf(feed: BoardSource): FeedStatus {
  return { ready: feed.ready(), health: feed.health() };
}

/** Turns successive boards into changes: the games whose JSON differs from the last change's. */
export class BoardDiffer {
  /** JSON of each game as last sent. */
  private sent = new Map<string, string>();
  private readonly jsonOf = new WeakMap<BoardGame, string>();
  private lastVersion: number | undefined;

  /** Whether the next change must be a keyframe (nothing sent yet, or the last send unconfirmed). */
  get needsKeyframe(): boolean {
    return this.lastVersion === undefined;
  }

  /**
   * The change from the last board sent to `board`; a keyframe when asked or when nothing was
   * sent. `version` numbers it (default: the board's own); `base` is the last change's
   * version, or what the caller says (a log that numbers its entries itself).
   */
  next(board: Board, health: BookHealth[], opts: { keyframe?: boolean; version?: number } = {}): BoardChange {
    const keyframe = opts.keyframe === true || this.needsKeyframe;
    const next = new Map<string, string>();
    const games: BoardGame[] = [];
    for (const game of board.games) {
      let json = this.jsonOf.get(game);
      if (json === undefined) {
        json = JSON.stringify(game);
        this.jsonOf.set(game, json);
      }
      next.set(game.id, json);
      if (keyframe || this.sent.get(game.id) !== json) games.push(game);
    }
    const version = opts.version ?? board.version;
    const change: BoardChange = {
      version,
      fetchedAt: board.fetchedAt,
      order: board.games.map((g) => g.id),
      games,
      health,
    };
    if (!keyframe) change.base = this.lastVersion;
    this.sent = next;
    this.lastVersion = version;
    return change;
  }

  /** The last change may not have arrived (a failed append): the next one is a keyframe. */
  reset(): void {
    this.sent = new Map();
    this.lastVersion = undefined;
  }
}

export interface ChangeFollower {
  /** Sends the status now if it changed (the caller's timer: health changes without a board). */
  checkStatus(): void;
  stop(): void;
}

/**
 * Sends `feed`'s boards as changes, in order: first what it holds already newer than
 * `afterMs` (its backfill; nothing new on a restart), oldest first back to the board standing
 * at `fromMs`, so a replica's `at()` answers from the start; then each new board. The status
 * goes with each board when it changed, and whenever `checkStatus` finds it changed.
 */
export function followChanges(
  feed: BoardSource,
  send: { change(change: BoardChange): void; status(status: FeedStatus): void },
  opts: { afterMs: number; fromMs: number },
): ChangeFollower {
  const differ = new BoardDiffer();
  let statusJson = '';
  /** The version of the last board sent. */
  let sent = 0;
  /** Latched like the feed's own (it never turns false again). */
  let ready = false;
  const checkStatus = () => {
    const status = statusOf(feed);
    // Ready only once the board the feed has is sent: its subscribers hear of a board after
    // its writes, and a replica told "ready" before that would serve the board before it.
    ready ||= status.ready && sent === feed.current().version;
    status.ready = ready;
    const json = JSON.stringify(status);
    if (json === statusJson) return;
    statusJson = json;
    send.status(status);
  };
  const sendBoard = (board: Board) => {
    send.change(differ.next(board, feed.health()));
    sent = board.version;
  };
  const backlog = boardsSince(feed, opts.afterMs, opts.fromMs);
  const unsubscribe = feed.subscribe((board) => {
    sendBoard(board);
    checkStatus();
  });
  for (const board of backlog) sendBoard(board);
  checkStatus();
  return { checkStatus, stop: unsubscribe };
}
