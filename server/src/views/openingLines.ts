/**
 * Each book's opening quote of every prop on the board, kept in memory from line history and
 * the boards the feed publishes: what the movement query measures current lines against.
 */
import type { SportId } from '@propsfeed/contract';
import type { Board, BoardSource } from '../board/types';
import type { LineHistoryReader } from '../history/types';

/** A line with its prices, as it opened (or stood at `since`). */
export interface Quote {
  line: number;
  overOdds?: number;
  underOdds?: number;
}

/** Opening quotes of one game's props, by `book|playerKey|stat`. */
type GameOpens = Map<string, Quote>;

export const propKey = (book: string, playerKey: string, stat: string) => `${book}|${playerKey}|${stat}`;

/**
 * Each book's opening quote of every prop on the board. Loaded from line history per sport,
 * then kept current by watching boards: the first board a quote appears on carries its
 * opening. History is read once per sport whatever was sighted before (after a restart the
 * first boards seen are not the openings), and again when a board holds a quote with no
 * known opening.
 */
export class OpeningLines {
  private readonly bySport = new Map<
    SportId,
    { games: Map<string, GameOpens>; checked?: Board; loading?: Promise<void>; loaded?: boolean }
  >();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly feed: BoardSource,
    private readonly history: LineHistoryReader,
  ) {}

  start(): void {
    this.unsubscribe ??= this.feed.subscribe((board) => this.sight(board));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** The opening quote of a book's prop; undefined only before `ensure` for its sport. */
  opening(sport: SportId, gameId: string, book: string, playerKey: string, stat: string): Quote | undefined {
    return this.bySport
      .get(sport)
      ?.games.get(gameId)
      ?.get(propKey(book, playerKey, stat));
  }

  /** Makes every quote of the sport on `board` have an opening, reading history when one lacks it. */
  async ensure(board: Board, sport: SportId): Promise<void> {
    const state = this.state(sport);
    if (state.checked === board) return;
    if (!state.loaded || this.missing(board, sport)) {
      state.loading ??= this.load(sport).finally(() => {
        state.loading = undefined;
      });
      await state.loading;
      // What history does not know opened on a board we did not see: its first sight is its opening.
      this.sight(board, sport);
    }
    state.checked = board;
  }

  private state(sport: SportId) {
    let state = this.bySport.get(sport);
    if (!state) {
      state = { games: new Map() };
      this.bySport.set(sport, state);
    }
    return state;
  }

  private missing(board: Board, sport: SportId): boolean {
    for (const game of board.games) {
      if (game.sport !== sport) continue;
      for (const prop of game.props) {
        for (const q of prop.books) if (!this.opening(sport, game.id, q.source, prop.playerKey, prop.stat)) return true;
      }
    }
    return false;
  }

  private async load(sport: SportId): Promise<void> {
    const records = await this.history.movers({ sport });
    const state = this.state(sport);
    state.loaded = true;
    const games = state.games;
    for (const rec of records) {
      let opens = games.get(rec.gameId);
      if (!opens) {
        opens = new Map();
        games.set(rec.gameId, opens);
      }
      for (const b of rec.books) {
        // History's opening is the truth; it replaces a sighting made while it loaded.
        opens.set(propKey(b.source, rec.playerKey, rec.stat), quote(b.openLine, b.openOverOdds, b.openUnderOdds));
      }
    }
  }

  /**
   * Records the opening of every quote not seen before, of one sport or (for each new current
   * board) of all, then forgets games gone from the board.
   */
  private sight(board: Board, only?: SportId): void {
    for (const game of board.games) {
      if (only !== undefined && game.sport !== only) continue;
      const games = this.state(game.sport).games;
      let opens = games.get(game.id);
      if (!opens) {
        opens = new Map();
        games.set(game.id, opens);
      }
      for (const prop of game.props) {
        for (const q of prop.books) {
          const key = propKey(q.source, prop.playerKey, prop.stat);
          if (!opens.has(key)) opens.set(key, quote(q.line, q.overOdds, q.underOdds));
        }
      }
    }
    if (only !== undefined) return;
    // Games gone from the board are forgotten; history still has them if one comes back.
    for (const state of this.bySport.values()) {
      for (const id of state.games.keys()) if (!board.gameById.has(id)) state.games.delete(id);
    }
  }
}

export function quote(line: number, overOdds?: number, underOdds?: number): Quote {
  const q: Quote = { line };
  if (overOdds !== undefined) q.overOdds = overOdds;
  if (underOdds !== undefined) q.underOdds = underOdds;
  return q;
}
