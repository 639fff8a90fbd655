/**
 * The board change codec: each board as a keyframe (every game) or a delta (only the games
 * new or changed since the previous change, plus the board's order of ids), numbered by
 * version. Ingest encodes (BoardDiffer, through feed/follow.ts or cluster/replication.ts); an
 * API process decodes (applyChange, in cluster/replica.ts), whether the change arrives over a
 * worker's MessagePort or a Redis stream.
 */
import { type Board, type BoardGame, type BookHealth, gamesById } from './types';

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

/**
 * The board `change` leads to from `base`, the board its source sent before it; undefined when
 * it is a delta on a board other than `base` (the receiver resyncs, or waits for a keyframe).
 */
export function applyChange(base: Board | undefined, change: BoardChange): Board | undefined {
  if (change.base !== undefined && base?.version !== change.base) return undefined;
  const byId = new Map<string, BoardGame>();
  if (change.base !== undefined && base) for (const g of base.games) byId.set(g.id, g);
  for (const g of change.games) byId.set(g.id, g);
  const games = change.order.map((gid) => byId.get(gid)).filter((g): g is BoardGame => g !== undefined);
  return { version: change.version, fetchedAt: change.fetchedAt, games, gameById: gamesById(games) };
}
