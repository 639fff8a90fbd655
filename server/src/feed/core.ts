/**
 * The feed's state machine, free of timers and sockets: each book's parts (its last good
 * parse and when it was taken), its quotes with the time each last changed, the merged
 * board, the recent boards for `at()`, and what goes to line history and game logs.
 * The poller (live) and the simulator's backfill (virtual time) drive it the same way.
 */
import type { Book, SportId } from '@propsfeed/contract';
import type { FetchFailure } from '../books/http';
import type { ParseResult, SlateGame, SlateLine } from '../books/types';
import type { HistoryGame, LineChange, LineHistoryStore } from '../history/lineHistory';
import type { GameLog, GameLogStore } from '../history/types';
import { BoardMerger, type BookView, type QuotedLine } from './merge';
import { type Board, type BookHealth, EMPTY_BOARD } from './types';

export interface FeedLogger {
  info(o: object, msg?: string): void;
  warn(o: object, msg?: string): void;
  error(o: object, msg?: string): void;
}

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
  health: BookHealth;
  attempted: boolean;
  failures: string[];
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
  logger: FeedLogger;
  /** How long past boards stay in memory for `at()`. */
  retainMs: number;
  now: () => number;
}

const THIN_AFTER_MS = 60_000;
const THIN_STEP_MS = 30_000;

const lineKey = (l: Pick<SlateLine, 'gameId' | 'playerKey' | 'stat'>) => `${l.gameId}|${l.playerKey}|${l.stat}`;

function samePrice(a: SlateLine, b: SlateLine): boolean {
  return a.line === b.line && a.overOdds === b.overOdds && a.underOdds === b.underOdds;
}

function sameLine(a: SlateLine, b: SlateLine): boolean {
  return (
    samePrice(a, b) &&
    a.liveValue === b.liveValue &&
    a.player === b.player &&
    a.team === b.team &&
    a.photoUrl === b.photoUrl &&
    a.playerId === b.playerId
  );
}

function sameGame(a: SlateGame, b: SlateGame): boolean {
  return (
    a.sport === b.sport &&
    a.homeTeam === b.homeTeam &&
    a.awayTeam === b.awayTeam &&
    a.homeKnown === b.homeKnown &&
    a.startMs === b.startMs &&
    a.state === b.state &&
    a.clock === b.clock
  );
}

/**
 * The quotes of a part's new lines: an unchanged line keeps its previous quote object (and
 * updatedAt). Lines usually arrive in the same order as last time, so they are compared by
 * position first and looked up by key only once the order differs. Returns `prev` itself
 * when nothing changed (a reorder is no change); reports each new price and each pulled line.
 */
/** A quote of one shape whatever the book sent (see newSlateLine). */
function quoted(l: SlateLine, updatedAt: number): QuotedLine {
  return {
    gameId: l.gameId,
    player: l.player,
    playerKey: l.playerKey,
    playerId: l.playerId,
    photoUrl: l.photoUrl,
    team: l.team,
    stat: l.stat,
    line: l.line,
    overOdds: l.overOdds,
    underOdds: l.underOdds,
    liveValue: l.liveValue,
    updatedAt,
  };
}

/** The quote a stored point of line history stands for, posted since its time. */
export function quoteOfPoint(p: LineChange & { line: number }): QuotedLine {
  return {
    gameId: p.gameId,
    player: p.player,
    playerKey: p.playerKey,
    playerId: undefined,
    photoUrl: undefined,
    team: p.team,
    stat: p.stat,
    line: p.line,
    overOdds: p.overOdds,
    underOdds: p.underOdds,
    liveValue: undefined,
    updatedAt: p.at,
  };
}

function internLines(
  prev: QuotedLine[],
  lines: readonly SlateLine[],
  at: number,
  report: (l: SlateLine, line: number | null) => void,
  resumed?: Map<string, LineChange>,
): QuotedLine[] {
  const out: QuotedLine[] = new Array(lines.length);
  let aligned = prev.length === lines.length;
  let changed = !aligned;
  let byKey: Map<string, QuotedLine> | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as SlateLine;
    let before = aligned ? prev[i] : undefined;
    if (before && (before.gameId !== l.gameId || before.playerKey !== l.playerKey || before.stat !== l.stat)) {
      aligned = false;
      before = undefined;
    }
    if (!aligned) {
      byKey ??= new Map(prev.map((q) => [lineKey(q), q]));
      before = byKey.get(lineKey(l));
    }
    if (!before && resumed) {
      const stored = resumed.get(lineKey(l));
      if (stored && stored.line !== null) before = quoteOfPoint({ ...stored, line: stored.line });
    }
    if (before && sameLine(before, l)) {
      out[i] = before;
      continue;
    }
    changed = true;
    const moved = !before || !samePrice(before, l);
    out[i] = quoted(l, moved || !before ? at : before.updatedAt);
    if (moved) report(l, l.line);
  }
  if (!aligned) {
    const present = new Set(lines.map(lineKey));
    for (const q of prev) {
      if (present.has(lineKey(q))) continue;
      changed = true;
      report(q, null);
    }
  }
  return changed ? out : prev;
}

export class FeedCore {
  private readonly books = new Map<Book, BookState>();
  private readonly merger = new BoardMerger();
  private readonly firstSeen = new Map<string, number>();
  private readonly timeline: Board[] = [];
  private readonly listeners = new Set<(board: Board) => void>();
  private readonly writtenGames = new Map<string, string>();
  private readonly loggedFinals = new Set<string>();

  constructor(private readonly opts: FeedCoreOptions) {
    for (const book of opts.books) {
      this.books.set(book, {
        parts: new Map(),
        games: new Map(),
        attempted: false,
        failures: [],
        health: {
          source: book,
          fetchedAt: null,
          lastAttemptAt: null,
          lastError: null,
          errorCount: 0,
          consecutiveFailures: 0,
          skippedItems: 0,
          unmappedStats: {},
        },
      });
    }
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
    this.pushBoard(board, at);
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
    s.health.skippedItems += result.skipped;
    for (const [name, n] of Object.entries(result.unmapped)) {
      s.health.unmappedStats[name] = (s.health.unmappedStats[name] ?? 0) + n;
    }
  }

  /** A part failed: its last good slate stays. */
  failPart(book: Book, part: string, failure: FetchFailure): void {
    this.state(book).failures.push(`${part}: ${failure.kind}: ${failure.message}`);
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
    this.pushBoard(board, at);
    if (opts.record !== false) {
      await this.writeHistory(board, changes);
      await this.recordFinals(board);
    }
    if (opts.notify !== false) for (const l of this.listeners) l(board);
    return board;
  }

  /** Health accounting of a book's cycle; the changes to history when its slate changed. */
  private endCycle(book: Book, at: number): LineChange[] | undefined {
    const s = this.state(book);
    s.attempted = true;
    s.health.lastAttemptAt = at;
    const complete = s.failures.length === 0;
    if (s.failures.length > 0) {
      s.health.errorCount += 1;
      s.health.consecutiveFailures += 1;
      s.health.lastError = s.failures.join('; ');
      this.opts.logger.warn(
        { book, errors: s.failures, consecutiveFailures: s.health.consecutiveFailures },
        'book fetch failed; keeping its last good slate',
      );
      s.failures = [];
    } else {
      s.health.consecutiveFailures = 0;
      s.health.lastError = null;
    }
    if (s.parts.size === 0) return undefined;
    s.health.fetchedAt = Math.min(...[...s.parts.values()].map((p) => p.fetchedAt));
    const { changed, changes, games, lines } = this.intern(book, s, at, complete);
    if (!changed) return undefined;
    s.view = { book, fetchedAt: s.health.fetchedAt, games, lines };
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
    const lines: QuotedLine[] = [];
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
      for (const q of part.quoted) lines.push(q);
    }
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

  private pushBoard(board: Board, at: number): void {
    const timeline = this.timeline;
    timeline.push(board);
    const horizon = at - this.opts.retainMs;
    // Keep the newest board at or before the horizon: it is the board as it stood then.
    let drop = 0;
    while (drop + 1 < timeline.length && (timeline[drop + 1] as Board).fetchedAt <= horizon) drop++;
    if (drop > 0) timeline.splice(0, drop);
    // Older than a minute, one board per THIN_STEP_MS is kept: a delayed view then gets a
    // board up to that much older (never fresher), and memory stays flat under fast polling.
    const thinBefore = at - THIN_AFTER_MS;
    let kept = 0;
    for (let i = 1; i < timeline.length; i++) {
      const b = timeline[i] as Board;
      const next = timeline[i + 1];
      const dropIt =
        b.fetchedAt < thinBefore &&
        next !== undefined &&
        next.fetchedAt < thinBefore &&
        b.fetchedAt - (timeline[kept] as Board).fetchedAt < THIN_STEP_MS;
      if (!dropIt) timeline[++kept] = b;
    }
    timeline.length = Math.min(timeline.length, kept + 1);
  }

  private async writeHistory(board: Board, changes: LineChange[]): Promise<void> {
    const history = this.opts.history;
    if (!history) return;
    const games: HistoryGame[] = [];
    const views = [...this.books.values()];
    for (const g of board.games) {
      for (const id of [g.id, ...g.aliases]) {
        const owner = views.find((v) => v.games.has(id));
        const sg = owner?.games.get(id);
        if (!owner || !sg) continue;
        const sig = `${g.id}|${sg.homeTeam}|${sg.awayTeam}|${sg.startMs}`;
        if (this.writtenGames.get(id) === sig) continue;
        this.writtenGames.set(id, sig);
        games.push({
          id,
          mergedId: g.id,
          book: owner.health.source,
          sport: sg.sport,
          homeTeam: g.homeTeam,
          awayTeam: g.awayTeam,
          startMs: sg.startMs,
        });
      }
    }
    try {
      await history.record({ games, changes });
    } catch (err) {
      // The board is still served; the written-games memo is dropped so the next cycle retries them.
      for (const g of games) this.writtenGames.delete(g.id);
      this.opts.logger.error({ err: String(err), changes: changes.length }, 'line history write failed');
    }
  }

  private async recordFinals(board: Board): Promise<void> {
    const store = this.opts.gameLogs;
    if (!store) return;
    const logs: GameLog[] = [];
    for (const g of board.games) {
      if (g.state !== 'final' || this.loggedFinals.has(g.id)) continue;
      this.loggedFinals.add(g.id);
      const date = g.startTime.slice(0, 10);
      for (const p of g.props) {
        if (p.liveValue === undefined || !p.team) continue;
        const home = p.team === g.homeTeam;
        logs.push({
          sport: g.sport,
          player: p.player,
          playerKey: p.playerKey,
          team: p.team,
          opponent: home ? g.awayTeam : g.homeTeam,
          home,
          date,
          stat: p.stat,
          value: p.liveValue,
          source: 'recorded',
        });
      }
    }
    if (logs.length === 0) return;
    try {
      await store.append(logs);
    } catch (err) {
      this.opts.logger.error({ err: String(err), logs: logs.length }, 'game log write failed');
    }
  }

  current(): Board {
    return this.timeline[this.timeline.length - 1] ?? EMPTY_BOARD;
  }

  /** The newest board made at or before `atMs`; the empty board when memory does not reach back. */
  at(atMs: number): Board {
    let lo = 0;
    let hi = this.timeline.length - 1;
    let found: Board | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const b = this.timeline[mid] as Board;
      if (b.fetchedAt <= atMs) {
        found = b;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found ?? EMPTY_BOARD;
  }

  subscribe(listener: (board: Board) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  health(): BookHealth[] {
    return [...this.books.values()].map((b) => ({ ...b.health, unmappedStats: { ...b.health.unmappedStats } }));
  }

  ready(): boolean {
    return [...this.books.values()].every((b) => b.attempted);
  }

  consecutiveFailures(book: Book): number {
    return this.state(book).health.consecutiveFailures;
  }
}
