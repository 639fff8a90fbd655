/**
 * Line history and player game logs: the read API the board routes (history, movers,
 * player context, projections) build on, and the write API the feed and CSV import use.
 */
import type { Book, SportId } from '@propsfeed/contract';

/** One line or price as it stood from `at` on. */
export interface LinePointRecord {
  /** Epoch ms. */
  at: number;
  line: number;
  overOdds?: number;
  underOdds?: number;
}

export interface BookLineHistory {
  source: Book;
  /** The book's own game id (`pp_…` / `ud_…`). */
  gameId: string;
  opening: LinePointRecord;
  current: LinePointRecord;
  /** Every change since the line opened, oldest first; the first is the opening. */
  changes: LinePointRecord[];
  /** True when the line was pulled after its last change (no longer posted). */
  pulled: boolean;
}

export interface PropHistoryQuery {
  /** Any id of the game: the merged id or an alias. */
  gameId: string;
  /** A player name (matched normalized) or a playerKey. */
  player: string;
  stat: string;
  source?: Book;
  /** Only changes at or before this time (delayed views). */
  untilMs?: number;
  /** Most changes per book returned; the newest are kept. */
  maxChanges?: number;
}

export interface PropHistory {
  /** The merged game id (the id of the book that posted the game first). */
  gameId: string;
  sport: SportId;
  player: string;
  playerKey: string;
  stat: string;
  books: BookLineHistory[];
  /** True when some book had more changes than `maxChanges`. */
  truncated: boolean;
}

export interface MoverBook {
  source: Book;
  openLine: number;
  currentLine: number;
  openOverOdds?: number;
  openUnderOdds?: number;
  currentOverOdds?: number;
  currentUnderOdds?: number;
}

/** Open vs current of one merged prop, per book. */
export interface MoverRecord {
  gameId: string;
  sport: SportId;
  player: string;
  playerKey: string;
  stat: string;
  books: MoverBook[];
}

export interface MoversQuery {
  sport: SportId;
  stat?: string;
  /** Compare against the line as it stood at this time (or when it opened, if later). */
  sinceMs?: number;
  /** Only changes at or before this time (delayed views). */
  untilMs?: number;
}

export interface LineHistoryReader {
  /** Undefined when no game has that id or the player never had that stat there. */
  propHistory(q: PropHistoryQuery): Promise<PropHistory | undefined>;
  /** Every prop of the sport with its opening and current line per book; pulled lines excluded. */
  movers(q: MoversQuery): Promise<MoverRecord[]>;
  /** The merged game id of any game id or alias, when known. */
  resolveGame(id: string): Promise<{ gameId: string; sport: SportId; bookGameIds: string[] } | undefined>;
}

export type GameLogSource = 'recorded' | 'import';

export interface GameLog {
  sport: SportId;
  player: string;
  /** normalizeName(player) + '|' + normalized team: see books/names.ts playerKey(). */
  playerKey: string;
  team: string;
  opponent: string;
  home: boolean;
  /** YYYY-MM-DD (UTC date of the game). */
  date: string;
  stat: string;
  value: number;
  source: GameLogSource;
}

export interface GameLogQuery {
  sport: SportId;
  playerKey: string;
  stat?: string;
  /** Newest first; at most this many per stat. */
  limit?: number;
}

export interface GameLogStore {
  /**
   * Appends logs; a log for a (sport, playerKey, date, opponent, stat) already stored is
   * left as it is. Returns how many were new.
   */
  append(logs: readonly GameLog[]): Promise<number>;
  /** One player's logs, newest first (by date). */
  forPlayer(q: GameLogQuery): Promise<GameLog[]>;
  /**
   * Every log in one read, grouped by sport, player and stat, each group newest first: what an
   * index in memory loads at start.
   */
  all(): Promise<GameLog[]>;
  /** Every player's logs for one stat of a sport, newest first; for projections in bulk. */
  forStat(sport: SportId, stat: string, opts?: { sinceDate?: string }): Promise<GameLog[]>;
  /** Some players' logs of games before `beforeDate` (YYYY-MM-DD), newest first: what was known before a game's day. */
  before(sport: SportId, playerKeys: readonly string[], beforeDate: string): Promise<GameLog[]>;
}
