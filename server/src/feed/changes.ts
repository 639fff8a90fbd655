/**
 * The feed's change log: each board as a keyframe (every game) or a delta (only the games
 * new or changed since the previous change, plus the board's order of ids), numbered by
 * version. Ingest makes it (BoardDiffer); an API process rebuilds the boards from it
 * (cluster/replica.ts), whether it arrives over a worker's MessagePort or a Redis stream.
 */
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
