/**
 * The merged board: what the books issue produces and every view, route and tool reads.
 * Boards are immutable snapshots; a new one replaces the old on every change. The ground
 * floor of server/src: it imports nothing there (.dependency-cruiser.cjs `board-is-ground-floor`).
 */
import type { Book, GameState, Projection, SportId } from '@propsfeed/contract';

/** The running score of a game, as a book reports it while live. */
export interface GameScore {
  home: number;
  away: number;
}

/** A player's line on a stat as quoted: one book's (books/types SlateLine) or the merged board's (BoardProp). */
export interface QuotedLine {
  player: string;
  /** Normalized player name + team: the key players are matched on across books. */
  playerKey: string;
  playerId?: string;
  photoUrl?: string;
  team?: string;
  stat: string;
  line: number;
  overOdds?: number;
  underOdds?: number;
  /** The running value while live. */
  liveValue?: number;
}

/** One book's own quote for a prop. Odds are absent where the book posts none (PrizePicks). */
export interface BookQuote {
  source: Book;
  line: number;
  overOdds?: number;
  underOdds?: number;
  /** Epoch ms of the last change of this quote. */
  updatedAt: number;
}

/**
 * One merged prop per (game, player, stat). Its `line` is the line most books post (on a tie,
 * the line of the book that has odds); `overOdds`/`underOdds` the best price per side among
 * the books posting `line`.
 */
export interface BoardProp extends QuotedLine {
  bookCount: number;
  books: BookQuote[];
  gameClock?: string;
  gameState: GameState;
}

/** One real-world game, posted by one or both books. */
export interface BoardGame {
  /** Id of the book that posted it first (`pp_…` or `ud_…`). */
  id: string;
  /** The other ids the books posted the same game under (the other book's; a second posting of one book). */
  aliases: string[];
  sport: SportId;
  homeTeam: string;
  awayTeam: string;
  /** ISO 8601. */
  startTime: string;
  startMs: number;
  state: GameState;
  live: boolean;
  source: Book;
  /** Books that contributed props to this game. */
  sources: Book[];
  /** '<period> <m:ss>' while live. */
  clock?: string;
  /** While live or final, from a book that reports it. */
  score?: GameScore;
  /**
   * Once final: the fetchedAt of the first board that showed it final (the books say when a
   * game is over, not when it ended). `/games` stops listing it by default a while after.
   */
  finalAt?: number;
  /** Ordered by player, then stat. */
  props: BoardProp[];
}

export interface Board {
  /** Increases with every new board; views are cached per version. */
  version: number;
  /** Epoch ms when the newest upstream snapshot in this board was taken. */
  fetchedAt: number;
  /** Live games first, then pre-game ones, then final ones; each by startTime, then by id. */
  games: readonly BoardGame[];
  /** Every game by its id and by each of its aliases. */
  gameById: ReadonlyMap<string, BoardGame>;
}

/** What /readyz reports of each book. */
export interface BookHealth {
  source: Book;
  /** Epoch ms of the last good snapshot; null before the first. */
  fetchedAt: number | null;
  lastAttemptAt: number | null;
  lastError: string | null;
  errorCount: number;
  consecutiveFailures: number;
  /** Items skipped because they failed to parse, since start. */
  skippedItems: number;
  /** Book stat names with no stat key, and how often they were seen. */
  unmappedStats: Record<string, number>;
}

/** The feed as the API sees it: the current board, past boards, and change notifications. */
export interface BoardSource {
  current(): Board;
  /**
   * The board as it stood at `atMs`, rebuilt from line history: its `fetchedAt` is that
   * snapshot's, never later than `atMs`. An empty board when history does not reach back.
   */
  at(atMs: number): Board;
  /** Called with each new current board. Returns an unsubscribe function. */
  subscribe(listener: (board: Board) => void): () => void;
  health(): BookHealth[];
  /** True once every configured book has produced a first board (or failed trying). */
  ready(): boolean;
}

/** `source`'s BoardSource methods, bound: for a feed that serves its board and adds methods of its own. */
export function boardSourceOf(source: BoardSource): BoardSource {
  return {
    current: () => source.current(),
    at: (ms) => source.at(ms),
    subscribe: (listener) => source.subscribe(listener),
    health: () => source.health(),
    ready: () => source.ready(),
  };
}

/** A board source that runs (polling, replicating) until stopped: every feed the runtime starts. */
export interface RunningFeed extends BoardSource {
  stop(): Promise<void>;
}

export const EMPTY_BOARD: Board = { version: 0, fetchedAt: 0, games: [], gameById: new Map() };

/** Board.gameById of `games`: each game by its id and by each of its aliases. */
export function gamesById(games: readonly BoardGame[]): Map<string, BoardGame> {
  const byId = new Map<string, BoardGame>();
  for (const g of games) {
    byId.set(g.id, g);
    for (const alias of g.aliases) byId.set(alias, g);
  }
  return byId;
}

/** How many props a board holds (what /readyz and the start-up line report). */
export function propCount(board: Board): number {
  let n = 0;
  for (const g of board.games) n += g.props.length;
  return n;
}

/** The service's own projection of a (sport, player, stat); views attach it to scan rows. */
export interface ProjectionSource {
  /** Undefined when the player has fewer than 5 recorded games for the stat. */
  get(sport: SportId, playerKey: string, stat: string): Projection | undefined;
}
