/**
 * Merge: one game per real matchup across books (groupGames), one prop per
 * (game, player, stat) with the consensus line, the best price per side and each book's quote.
 * Games whose inputs did not change keep their previous BoardGame object, so a board differs
 * from the one before only where something moved (cheap to build, cheap to keep many of).
 */
import { BOOKS, type Book, GAME_STATE_ORDER, type GameState } from '@propsfeed/contract';
import { type Board, type BoardGame, type BoardProp, type BookQuote, type GameScore, gamesById } from '../board/types';
import { normalizeName } from '../books/names';
import type { SlateGame, SlateLine } from '../books/types';

/** A book's line with the time it last changed (kept by the feed across polls). */
export interface QuotedLine extends SlateLine {
  updatedAt: number;
  /** When this book's liveValue last changed (first seen counts); undefined without one. */
  liveAt?: number | undefined;
}

/** One book's part of a merge: its last good slate. */
export interface BookView {
  book: Book;
  fetchedAt: number;
  games: readonly SlateGame[];
  lines: readonly QuotedLine[];
}

/** The books' start times for one game differ by minutes; a doubleheader's games by hours. */
const MATCH_WINDOW_MS = 30 * 60 * 1000;
const STATE_RANK: Record<GameState, number> = { pre: 0, live: 1, final: 2 };

interface Member {
  book: Book;
  game: SlateGame;
}

interface Draft {
  members: Member[];
  /** The game's lines and, at the same index, the book of each (no object per line). */
  lines: QuotedLine[];
  books: Book[];
}

/** What a BoardGame was built from: the same objects again mean the same game. */
interface Built {
  members: SlateGame[];
  lines: QuotedLine[];
  game: BoardGame;
  /** Each prop with the quotes it was built from, so a rebuilt game reuses unchanged props. */
  props: Map<string, BuiltProp>;
  /** The prop key of each of `lines`, so a rebuilt game makes key strings only for lines that changed. */
  keys: string[];
}

interface BuiltProp {
  slots: (QuotedLine | undefined)[];
  prop: BoardProp;
}

function teamsKey(g: SlateGame): string {
  const a = normalizeName(g.homeTeam);
  const b = normalizeName(g.awayTeam);
  return `${g.sport}|${a < b ? `${a}|${b}` : `${b}|${a}`}`;
}

function bookRank(book: Book): number {
  return BOOKS.indexOf(book);
}

export class BoardMerger {
  private previous = new Map<string, Built>();

  /**
   * `version`: the number before the first board's. The feed starts it at the clock, so the
   * versions of a restarted process are above any it gave before (stream event ids are built
   * on them; the shared engines number boards in Redis instead).
   */
  constructor(private version = 0) {}

  /**
   * Builds the next board. `firstSeen` gives the time a book game id was first seen, which
   * decides whose id a merged game carries.
   */
  merge(views: readonly BookView[], firstSeen: (gameId: string) => number): Board {
    const fetchedAt = views.reduce((max, v) => Math.max(max, v.fetchedAt), 0);
    const next = new Map<string, Built>();
    const games: BoardGame[] = [];
    for (const draft of groupGames(views, firstSeen)) {
      const members = draft.members.map((m) => m.game);
      const id = (members[0] as SlateGame).id;
      const prev = this.previous.get(id);
      const built =
        prev && sameRefs(prev.members, members) && sameRefs(prev.lines, draft.lines)
          ? prev
          : { members, lines: draft.lines, ...buildGame(draft, prev, fetchedAt) };
      next.set(id, built);
      games.push(built.game);
    }
    this.previous = next;
    games.sort(compareGames);
    this.version += 1;
    return { version: this.version, fetchedAt, games, gameById: gamesById(games) };
  }
}

/**
 * Groups postings into real games: one game per matchup of a sport, whatever the books say of
 * who is home (the teams are an unordered pair) and however often a book posts it. Two
 * postings of the teams are one game when they start within MATCH_WINDOW_MS of each other,
 * or through a chain of such postings (PrizePicks sometimes posts one game at two times);
 * a doubleheader, hours apart, stays two games.
 */
function groupGames(views: readonly BookView[], firstSeen: (gameId: string) => number): Draft[] {
  const all: Member[] = [];
  for (const v of views) for (const game of v.games) all.push({ book: v.book, game });
  all.sort(
    (a, b) =>
      firstSeen(a.game.id) - firstSeen(b.game.id) ||
      bookRank(a.book) - bookRank(b.book) ||
      (a.game.id < b.game.id ? -1 : 1),
  );
  // Union-find over the postings: each joins every earlier posting of its teams near its start.
  const parent = all.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      const up = parent[i] as number;
      parent[i] = parent[up] as number;
      i = up;
    }
    return i;
  };
  const byTeams = new Map<string, number[]>();
  for (let i = 0; i < all.length; i++) {
    const game = (all[i] as Member).game;
    const key = teamsKey(game);
    let earlier = byTeams.get(key);
    if (!earlier) {
      earlier = [];
      byTeams.set(key, earlier);
    }
    for (const j of earlier) {
      if (Math.abs((all[j] as Member).game.startMs - game.startMs) > MATCH_WINDOW_MS) continue;
      // The earlier root stays the root: a game keeps the id of its first posting.
      const [a, b] = [root(j), root(i)];
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
    earlier.push(i);
  }
  const draftOfRoot = new Map<number, Draft>();
  const draftOf = new Map<string, Draft>();
  const drafts: Draft[] = [];
  for (let i = 0; i < all.length; i++) {
    const m = all[i] as Member;
    const r = root(i);
    let draft = draftOfRoot.get(r);
    if (!draft) {
      draft = { members: [], lines: [], books: [] };
      draftOfRoot.set(r, draft);
      drafts.push(draft);
    }
    draft.members.push(m);
    draftOf.set(m.game.id, draft);
  }
  for (const v of views) {
    for (const line of v.lines) {
      const draft = draftOf.get(line.gameId);
      if (!draft) continue;
      draft.lines.push(line);
      draft.books.push(v.book);
    }
  }
  return drafts;
}

function sameRefs(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function compareGames(a: BoardGame, b: BoardGame): number {
  return (
    GAME_STATE_ORDER[a.state] - GAME_STATE_ORDER[b.state] ||
    a.startMs - b.startMs ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** `previous`: the game as the last board built it; `at`: this board's fetchedAt. */
function buildGame(draft: Draft, previous: Built | undefined, at: number): Pick<Built, 'game' | 'props' | 'keys'> {
  const primary = draft.members[0] as Member;
  const sides = draft.members.find((m) => m.game.homeKnown) ?? primary;
  let state: GameState = 'pre';
  let clock: string | undefined;
  let score: GameScore | undefined;
  for (const m of draft.members) {
    if (STATE_RANK[m.game.state] > STATE_RANK[state]) state = m.game.state;
    clock ??= m.game.clock;
    score ??= m.game.score;
  }
  const sources = BOOKS.filter((b) => draft.books.includes(b));
  const liveClock = state === 'live' ? clock : undefined;
  const game: BoardGame = {
    id: primary.game.id,
    aliases: draft.members.slice(1).map((m) => m.game.id),
    sport: primary.game.sport,
    homeTeam: sides.game.homeTeam,
    awayTeam: sides.game.awayTeam,
    // A book that states home/away keys its games on the real game, not on one posting's time.
    startTime: new Date(sides.game.startMs).toISOString(),
    startMs: sides.game.startMs,
    state,
    live: state === 'live',
    source: primary.book,
    sources: sources.length > 0 ? sources : [primary.book],
    props: [],
  };
  if (liveClock) game.clock = liveClock;
  if (score && state !== 'pre') game.score = score;
  if (state === 'final') game.finalAt = previous?.game.finalAt ?? at;
  const { props, keys } = buildProps(draft, state, liveClock, previous);
  game.props = [...props.values()].map((b) => b.prop);
  game.props.sort((a, b) =>
    a.player < b.player ? -1 : a.player > b.player ? 1 : a.stat < b.stat ? -1 : a.stat > b.stat ? 1 : 0,
  );
  return { game, props, keys };
}

function buildProps(
  draft: Draft,
  gameState: GameState,
  clock: string | undefined,
  previousGame: Built | undefined,
): Pick<Built, 'props' | 'keys'> {
  const previous = previousGame?.props;
  const previousLines = previousGame?.lines;
  const previousKeys = previousGame?.keys;
  const keys = new Array<string>(draft.lines.length);
  // Per (player, stat): at most one quote per book, at the book's rank.
  const slotsByProp = new Map<string, (QuotedLine | undefined)[]>();
  // One display name per player in a game (books spell accents differently): the first-ranked book's.
  const nameByPlayer = new Map<string, { rank: number; name: string }>();
  for (let i = 0; i < draft.lines.length; i++) {
    const line = draft.lines[i] as QuotedLine;
    // The same quote object at the same place had this key last time (a quote's key never changes).
    const key =
      previousLines?.[i] === line && previousKeys?.[i] !== undefined
        ? (previousKeys[i] as string)
        : `${line.playerKey}\u0000${line.stat}`;
    keys[i] = key;
    let slots = slotsByProp.get(key);
    if (!slots) {
      slots = new Array<QuotedLine | undefined>(BOOKS.length);
      slotsByProp.set(key, slots);
    }
    const rank = bookRank(draft.books[i] as Book);
    slots[rank] ??= line;
    const named = nameByPlayer.get(line.playerKey);
    if (!named || rank < named.rank) nameByPlayer.set(line.playerKey, { rank, name: line.player });
  }
  const built = new Map<string, BuiltProp>();
  for (const [key, slots] of slotsByProp) {
    const prev = previous?.get(key);
    const first = slots.find((s) => s !== undefined) as QuotedLine;
    const name = nameByPlayer.get(first.playerKey)?.name ?? first.player;
    const reuse =
      prev &&
      prev.prop.gameState === gameState &&
      prev.prop.gameClock === clock &&
      prev.prop.player === name &&
      sameRefs(prev.slots, slots);
    built.set(key, reuse ? prev : { slots, prop: buildProp(slots, name, gameState, clock) });
  }
  return { props: built, keys };
}

function quoteOf(source: Book, line: QuotedLine): BookQuote {
  const q: BookQuote = { source, line: line.line, updatedAt: line.updatedAt };
  if (line.overOdds !== undefined) q.overOdds = line.overOdds;
  if (line.underOdds !== undefined) q.underOdds = line.underOdds;
  return q;
}

function buildProp(
  slots: readonly (QuotedLine | undefined)[],
  player: string,
  gameState: GameState,
  clock: string | undefined,
): BoardProp {
  const lines: QuotedLine[] = [];
  const books: BookQuote[] = [];
  for (let rank = 0; rank < slots.length; rank++) {
    const line = slots[rank];
    if (!line) continue;
    lines.push(line);
    books.push(quoteOf(BOOKS[rank] as Book, line));
  }
  const first = lines[0] as QuotedLine;
  const consensus = consensusLine(lines);
  let overOdds: number | undefined;
  let underOdds: number | undefined;
  let liveValue: number | undefined;
  let liveAt = Number.NEGATIVE_INFINITY;
  let playerId: string | undefined;
  let photoUrl: string | undefined;
  let team: string | undefined;
  for (const line of lines) {
    if (line.line === consensus) {
      if (line.overOdds !== undefined && (overOdds === undefined || line.overOdds > overOdds)) overOdds = line.overOdds;
      if (line.underOdds !== undefined && (underOdds === undefined || line.underOdds > underOdds)) {
        underOdds = line.underOdds;
      }
    }
    playerId ??= line.playerId;
    photoUrl ??= line.photoUrl;
    team ??= line.team;
    // The books' running values differ while one lags: the value that changed last is the fresher.
    if (line.liveValue !== undefined) {
      const at = line.liveAt ?? Number.NEGATIVE_INFINITY;
      if (liveValue === undefined || at > liveAt || (at === liveAt && line.liveValue > liveValue)) {
        liveValue = line.liveValue;
        liveAt = at;
      }
    }
  }
  // Optional fields are set only when present: objects keep one shape (fast to build and serialize).
  const prop: BoardProp = {
    player,
    playerKey: first.playerKey,
    stat: first.stat,
    line: consensus,
    bookCount: lines.length,
    books,
    gameState,
  };
  if (overOdds !== undefined) prop.overOdds = overOdds;
  if (underOdds !== undefined) prop.underOdds = underOdds;
  if (playerId !== undefined) prop.playerId = playerId;
  if (photoUrl !== undefined) prop.photoUrl = photoUrl;
  if (team !== undefined) prop.team = team;
  if (liveValue !== undefined && gameState !== 'pre') prop.liveValue = liveValue;
  if (clock) prop.gameClock = clock;
  return prop;
}

/** A book's line with its prices, as the consensus rule reads it. */
type PricedLine = Pick<SlateLine, 'line' | 'overOdds' | 'underOdds'>;

function hasOdds(l: PricedLine): boolean {
  return l.overOdds !== undefined || l.underOdds !== undefined;
}

/**
 * The consensus line (a merged prop's line, and a mover's opening line): the line most books
 * post; on a tie, the line of a book with odds, else the first book's.
 */
export function consensusLine(lines: readonly PricedLine[]): number {
  const first = lines[0] as PricedLine;
  if (lines.length === 1) return first.line;
  let best = first;
  let bestCount = 0;
  for (const candidate of lines) {
    let count = 0;
    for (const l of lines) if (l.line === candidate.line) count++;
    if (count > bestCount || (count === bestCount && !hasOdds(best) && hasOdds(candidate))) {
      best = candidate;
      bestCount = count;
    }
  }
  return best.line;
}
