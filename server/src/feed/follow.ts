/**
 * How ingest sends its feed to whoever serves it: its boards as changes (board/changes.ts),
 * oldest first, and its status beside them (the embedded server's worker, cluster/ingestWorker.ts).
 */
import { type BoardChange, BoardDiffer } from '../board/changes';
import type { Board, BoardSource, BookHealth } from '../board/types';
import { boardsSince } from './timeline';

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
