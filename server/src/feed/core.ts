/**
 * The feed's state machine, free of timers and sockets: each book's parts (its last good
 * parse and when it was taken) and their interned quotes, merged into boards. Its parts:
 * interning (intern.ts), book health (bookHealth.ts), the timeline of past boards for `at()`
 * (timeline.ts) and the writers of line history and game logs (historyWriter.ts,
 * gameLogWriter.ts). The poller (live) and the simulator's backfill (virtual time) drive it
 * the same way.
 */
import type { Book, SportId } from '@propsfeed/contract';
import type { Board, BookHealth } from '../board/types';
import type { FetchFailure } from '../books/http';
import type { ParseResult, SlateGame, SlateLine } from '../books/types';
import type { LineChange, LineHistoryStore } from '../history/lineHistory';
import type { SettlementStore } from '../history/settlement';
import type { GameLogStore } from '../history/types';
import type { Coefficients } from '../odds/model';
import { BookHealthRecord } from './bookHealth';
import { GameLogWriter } from './gameLogWriter';
import { type GameOwner, LineHistoryWriter } from './historyWriter';
import { internLines, lineKey, sameGame } from './intern';
import { PropLockWriter } from './lockWriter';
import type { FeedLogger } from './logger';
import { BoardMerger, type BookView, type QuotedLine } from './merge';
import { BoardTimeline } from './timeline';

/** One request's part of a book: its last good parse and the quotes interned from it. */
interface Part {
  result: ParseResult;
  fetchedAt: number;
  /** The quotes of `internedFrom`'s lines, at the same index; absent before the first intern. */
  quoted?: QuotedLine[];
  internedFrom?: ParseResult;
}

interface BookState {
  parts: Map<string, Part>;
  games: Map<string, SlateGame>;
  view?: BookView;
  health: BookHealthRecord;
  /**
   * The latest stored point of each line (by line key) when this core resumed from stored
   * history, until the book's first complete cycle has been compared with it.
   */
  resumed?: Map<string, LineChange>;
}

export interface FeedCoreOptions {
  books: readonly Book[];
  history?: LineHistoryStore | undefined;
  gameLogs?: GameLogStore | undefined;
  /** Where each game's props are locked when it starts (needs `gameLogs` for their chances). */
  locks?: SettlementStore | undefined;
  /** The coefficients the locked chances are made with (default: the simulator's). */
  coefficients?: Coefficients | undefined;
  logger: FeedLogger;
  /** How long past boards stay in memory for `at()`. */
  retainMs: number;
  now: () => number;
  /** Boards are numbered above this (a restarted ingest worker goes on from its predecessor's numbers). */
  versionsAfter?: number | undefined;
}

export class FeedCore {
  private readonly books = new Map<Book, BookState>();
  private readonly merger: BoardMerger;
  private readonly firstSeen = new Map<string, number>();
  private readonly timeline: BoardTimeline;
  private readonly listeners = new Set<(board: Board) => void>();
  private readonly historyWriter: LineHistoryWriter | undefined;
  private readonly gameLogWriter: GameLogWriter | undefined;
  private readonly lockWriter: PropLockWriter | undefined;

  constructor(private readonly opts: FeedCoreOptions) {
    this.merger = new BoardMerger(Math.max(opts.now(), opts.versionsAfter ?? 0));
    for (const book of opts.books) {
      this.books.set(book, { parts: new Map(), games: new Map(), health: new BookHealthRecord(book) });
    }
    this.timeline = new BoardTimeline(opts.retainMs);
    if (opts.history) this.historyWriter = new LineHistoryWriter(opts.history, opts.logger);
    if (opts.gameLogs) this.gameLogWriter = new GameLogWriter(opts.gameLogs, opts.logger);
    if (opts.locks && opts.gameLogs)
      this.lockWriter = new PropLockWriter(opts.locks, opts.gameLogs, opts.logger, opts.coefficients);
  }

  private state(book: Book): BookState {
    const s = this.books.get(book);
    if (!s) throw new Error(`book ${book} is not configured`);
    return s;
  }

  /**
   * Resumes from stored history (taking over ingest from another leader, or restarting on
   * the real books): the latest stored point of each line (LineHistoryStore.latestPoints). A line seen again at its stored price keeps its time and
   * is not recorded again; one stored as posted but absent from the book's first complete
   * cycle is recorded as pulled.
   */
  resumeFrom(points: readonly LineChange[]): void {
    for (const p of points) {
      const s = this.books.get(p.book);
      if (!s) continue;
      s.resumed ??= new Map();
      s.resumed.set(lineKey(p), p);
    }
  }

  /**
   * A board as the books stood at `at`, rebuilt from line history after a restart, so the
   * delayed view has boards from the first second. Only the timeline takes it: the books'
   * parts, quotes and health start with the first live cycle.
   */
  restoreBoard(views: readonly BookView[], at: number): Board {
    const board = this.merger.merge(views, (id) => this.firstSeen.get(id) ?? at);
    this.timeline.push(board, at);
    return board;
  }

  /** A part of a book's cycle parsed: it replaces that part's last good slate. */
  applyPart(book: Book, part: string, result: ParseResult, at: number): void {
    const s = this.state(book);
    const known = s.parts.get(part);
    if (known) {
      known.result = result;
      known.fetchedAt = at;
    } else s.parts.set(part, { result, fetchedAt: at });
    s.health.parsed(result);
  }

  /** A part failed: its last good slate stays. */
  failPart(book: Book, part: string, failure: FetchFailure): void {
    this.state(book).health.failed(part, failure);
  }

  /**
   * Ends the cycle of one or more books: counts failed cycles, and when a slate changed,
   * merges one new board and writes the changes to history in one transaction. Returns the
   * new board, if one was made. `notify: false` keeps subscribers out of it (backfill);
   * `record: false` writes nothing to the store (a replay of what it already holds).
   */
  async commit(
    books: Book | readonly Book[],
    at: number,
    opts: { notify?: boolean; record?: boolean } = {},
  ): Promise<Board | undefined> {
    const changes: LineChange[] = [];
    let changed = false;
    for (const book of typeof books === 'string' ? [books] : books) {
      const result = this.endCycle(book, at);
      if (!result) continue;
      changed = true;
      changes.push(...result);
    }
    if (!changed) return undefined;
    const views = [...this.books.values()].flatMap((b) => (b.view ? [b.view] : []));
    const board = this.merger.merge(views, (id) => this.firstSeen.get(id) ?? at);
    this.timeline.push(board, at);
    await this.lockWriter?.write(board, at, opts.record !== false);
    if (opts.record !== false) {
      await this.historyWriter?.write(board, changes, this.ownerOf);
      await this.gameLogWriter?.recordFinals(board);
    }
    if (opts.notify !== false) for (const l of this.listeners) l(board);
    return board;
  }

  /** Health accounting of a book's cycle; the changes to history when its slate changed. */
  private endCycle(book: Book, at: number): LineChange[] | undefined {
    const s = this.state(book);
    const complete = s.health.endCycle(at, this.opts.logger);
    if (s.parts.size === 0) return undefined;
    const fetchedAt = Math.min(...[...s.parts.values()].map((p) => p.fetchedAt));
    s.health.fetched(fetchedAt);
    const { changed, changes, games, lines } = this.intern(book, s, at, complete);
    if (!changed) return undefined;
    s.view = { book, fetchedAt, games, lines };
    return changes;
  }

  private intern(book: Book, s: BookState, at: number, complete: boolean) {
    let changed = false;
    const games = new Map<string, SlateGame>();
    const changes: LineChange[] = [];
    for (const { result } of s.parts.values()) {
      for (const g of result.slate.games) {
        const prev = s.games.get(g.id);
        if (prev && sameGame(prev, g)) games.set(g.id, prev);
        else {
          games.set(g.id, g);
          changed = true;
        }
        if (!this.firstSeen.has(g.id)) this.firstSeen.set(g.id, at);
      }
    }
    const change = (l: SlateLine, line: number | null): LineChange => ({
      book,
      sport: (games.get(l.gameId) ?? s.games.get(l.gameId))?.sport as SportId,
      gameId: l.gameId,
      playerKey: l.playerKey,
      player: l.player,
      team: l.team,
      stat: l.stat,
      at,
      line,
      overOdds: line === null ? undefined : l.overOdds,
      underOdds: line === null ? undefined : l.underOdds,
    });
    const parts: QuotedLine[][] = [];
    for (const part of s.parts.values()) {
      // A part that failed this cycle still holds the parse it was interned from.
      if (part.quoted === undefined || part.internedFrom !== part.result) {
        const prev = part.quoted ?? [];
        const next = internLines(
          prev,
          part.result.slate.lines,
          at,
          (l, line) => changes.push(change(l, line)),
          s.resumed,
        );
        if (next !== prev) changed = true;
        part.quoted = next;
        part.internedFrom = part.result;
      }
      parts.push(part.quoted);
    }
    // One part (a whole slate) is the book's lines as they are: a copy would be one more array
    // the size of the slate per cycle, allocated where the collector pays most for it.
    const lines = parts.length === 1 ? (parts[0] as QuotedLine[]) : parts.flat();
    if (s.resumed && complete) {
      const present = new Set(lines.map(lineKey));
      for (const [key, stored] of s.resumed) {
        if (stored.line === null || present.has(key)) continue;
        changes.push({ ...stored, at, line: null, overOdds: undefined, underOdds: undefined });
        changed = true;
      }
      s.resumed = undefined;
    }
    if (games.size !== s.games.size) changed = true;
    s.games = games;
    return { changed, changes, games: [...games.values()], lines };
  }

  /** The book whose slate holds a game id, for the history writer. */
  private readonly ownerOf: GameOwner = (id) => {
    for (const [book, s] of this.books) {
      const game = s.games.get(id);
      if (game) return { book, game };
    }
    return undefined;
  };

  current(): Board {
    return this.timeline.current();
  }

  /** The newest board made at or before `atMs`; the empty board when memory does not reach back. */
  at(atMs: number): Board {
    return this.timeline.at(atMs);
  }

  subscribe(listener: (board: Board) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  health(): BookHealth[] {
    return [...this.books.values()].map((b) => b.health.snapshot());
  }

  ready(): boolean {
    return [...this.books.values()].every((b) => b.health.attempted);
  }

  consecutiveFailures(book: Book): number {
    return this.state(book).health.consecutiveFailures;
  }
}
