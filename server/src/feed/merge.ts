/**
 * Merge (DESIGN.md, Merging): one game per real matchup across books, one prop per
 * (game, player, stat) with the consensus line, the best price per side and each book's quote.
 * Games whose inputs did not change keep their previous BoardGame object, so a board differs
 * from the one before only where something moved (cheap to build, cheap to keep many of).
 */
import { BOOKS, type Book, type GameState } from '@propsfeed/contract';
import { normalizeName } from '../books/names';
import type { SlateGame, SlateLine } from '../books/types';
import type { Board, BoardGame, BoardProp, BookQuote } from './types';

/** A book's line with the time it last changed (kept by the feed across polls). */
export interface QuotedLine extends SlateLine {
  updatedAt: number;
}

/** One book's part of a merge: its last good slate. */
export interface BookView {
  book: Book;
  fetchedAt: number;
  games: readonly SlateGame[];
  lines: readonly QuotedLine[];
}

const MATCH_WINDOW_MS = 3 * 60 * 60 * 1000;
const STATE_RANK: Record<GameState, number> = { pre: 0, live: 1, final: 2 };

interface Member {
  book: Book;
  game: SlateGame;
}
interface Draft {
  members: Member[];
  lines: { book: Book; line: QuotedLine }[];
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
  private version = 0;
  private previous = new Map<string, { inputs: unknown[]; game: BoardGame }>();

  /**
   * Builds the next board. `firstSeen` gives the time a book game id was first seen, which
   * decides whose id a merged game carries.
   */
  merge(views: readonly BookView[], firstSeen: (gameId: string) => number): Board {
    const drafts = this.groupGames(views, firstSeen);
    const next = new Map<string, { inputs: unknown[]; game: BoardGame }>();
    const games: BoardGame[] = [];
    for (const draft of drafts) {
      const inputs: unknown[] = [...draft.members.map((m) => m.game), ...draft.lines.map((l) => l.line)];
      const id = (draft.members[0] as Member).game.id;
      const prev = this.previous.get(id);
      const game = prev && sameInputs(prev.inputs, inputs) ? prev.game : buildGame(draft);
      next.set(id, { inputs, game });
      games.push(game);
    }
    this.previous = next;
    games.sort(compareGames);
    const gameById = new Map<string, BoardGame>();
    for (const g of games) {
      gameById.set(g.id, g);
      for (const alias of g.aliases) gameById.set(alias, g);
    }
    const fetchedAt = views.reduce((max, v) => Math.max(max, v.fetchedAt), 0);
    this.version += 1;
    return { version: this.version, fetchedAt, games, gameById };
  }

  private groupGames(views: readonly BookView[], firstSeen: (gameId: string) => number): Draft[] {
    const all: Member[] = [];
    for (const v of views) for (const game of v.games) all.push({ book: v.book, game });
    all.sort(
      (a, b) =>
        firstSeen(a.game.id) - firstSeen(b.game.id) ||
        bookRank(a.book) - bookRank(b.book) ||
        (a.game.id < b.game.id ? -1 : 1),
    );
    const byTeams = new Map<string, Draft[]>();
    const draftOf = new Map<string, Draft>();
    const drafts: Draft[] = [];
    for (const m of all) {
      const key = teamsKey(m.game);
      const candidates = byTeams.get(key) ?? [];
      let draft = candidates.find(
        (d) =>
          !d.members.some((x) => x.book === m.book) &&
          Math.abs((d.members[0] as Member).game.startMs - m.game.startMs) <= MATCH_WINDOW_MS,
      );
      if (!draft) {
        draft = { members: [], lines: [] };
        candidates.push(draft);
        byTeams.set(key, candidates);
        drafts.push(draft);
      }
      draft.members.push(m);
      draftOf.set(m.game.id, draft);
    }
    for (const v of views) {
      for (const line of v.lines) draftOf.get(line.gameId)?.lines.push({ book: v.book, line });
    }
    return drafts;
  }
}

function sameInputs(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function compareGames(a: BoardGame, b: BoardGame): number {
  if (a.live !== b.live) return a.live ? -1 : 1;
  return a.startMs - b.startMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function buildGame(draft: Draft): BoardGame {
  const primary = draft.members[0] as Member;
  const sides = draft.members.find((m) => m.game.homeKnown) ?? primary;
  let state: GameState = 'pre';
  let clock: string | undefined;
  for (const m of draft.members) {
    if (STATE_RANK[m.game.state] > STATE_RANK[state]) state = m.game.state;
    clock ??= m.game.clock;
  }
  const sources = [...new Set(draft.lines.map((l) => l.book))].sort((a, b) => bookRank(a) - bookRank(b));
  const game: BoardGame = {
    id: primary.game.id,
    aliases: draft.members.slice(1).map((m) => m.game.id),
    sport: primary.game.sport,
    homeTeam: sides.game.homeTeam,
    awayTeam: sides.game.awayTeam,
    startTime: new Date(primary.game.startMs).toISOString(),
    startMs: primary.game.startMs,
    state,
    live: state === 'live',
    source: primary.book,
    sources: sources.length > 0 ? sources : [primary.book],
    props: buildProps(draft, state, state === 'live' ? clock : undefined),
  };
  if (state === 'live' && clock) game.clock = clock;
  return game;
}

function buildProps(draft: Draft, gameState: GameState, clock: string | undefined): BoardProp[] {
  const byProp = new Map<string, { book: Book; line: QuotedLine }[]>();
  for (const entry of draft.lines) {
    const key = `${entry.line.playerKey}\u0000${entry.line.stat}`;
    const list = byProp.get(key);
    if (list) {
      if (!list.some((e) => e.book === entry.book)) list.push(entry);
    } else byProp.set(key, [entry]);
  }
  const props: BoardProp[] = [];
  for (const entries of byProp.values()) {
    entries.sort((a, b) => bookRank(a.book) - bookRank(b.book));
    props.push(buildProp(entries, gameState, clock));
  }
  props.sort((a, b) =>
    a.player < b.player ? -1 : a.player > b.player ? 1 : a.stat < b.stat ? -1 : a.stat > b.stat ? 1 : 0,
  );
  return props;
}

function hasOdds(l: Pick<SlateLine, 'overOdds' | 'underOdds'>): boolean {
  return l.overOdds !== undefined || l.underOdds !== undefined;
}

function buildProp(
  entries: { book: Book; line: QuotedLine }[],
  gameState: GameState,
  clock: string | undefined,
): BoardProp {
  const first = (entries[0] as { line: QuotedLine }).line;
  const books: BookQuote[] = entries.map(({ book, line }) => {
    const q: BookQuote = { source: book, line: line.line, updatedAt: line.updatedAt };
    if (line.overOdds !== undefined) q.overOdds = line.overOdds;
    if (line.underOdds !== undefined) q.underOdds = line.underOdds;
    return q;
  });
  const consensus = consensusLine(entries.map((e) => e.line));
  const prop: BoardProp = {
    player: first.player,
    playerKey: first.playerKey,
    stat: first.stat,
    line: consensus,
    bookCount: entries.length,
    books,
    gameState,
  };
  let liveValue: number | undefined;
  for (const { line } of entries) {
    if (line.line === consensus) {
      if (line.overOdds !== undefined && (prop.overOdds === undefined || line.overOdds > prop.overOdds))
        prop.overOdds = line.overOdds;
      if (line.underOdds !== undefined && (prop.underOdds === undefined || line.underOdds > prop.underOdds))
        prop.underOdds = line.underOdds;
    }
    prop.playerId ??= line.playerId;
    prop.photoUrl ??= line.photoUrl;
    prop.team ??= line.team;
    if (line.liveValue !== undefined) liveValue = Math.max(liveValue ?? line.liveValue, line.liveValue);
  }
  for (const k of ['playerId', 'photoUrl', 'team'] as const) if (prop[k] === undefined) delete prop[k];
  if (liveValue !== undefined && gameState !== 'pre') prop.liveValue = liveValue;
  if (clock) prop.gameClock = clock;
  return prop;
}

/**
 * The line most books post; on a tie, the line of a book with odds, else the first book's.
 * Exported for the movers, whose merged opening line is the consensus of the books' openings.
 */
export function consensusLine(lines: readonly Pick<SlateLine, 'line' | 'overOdds' | 'underOdds'>[]): number {
  if (lines.length === 1) return (lines[0] as SlateLine).line;
  const counts = new Map<number, number>();
  for (const l of lines) counts.set(l.line, (counts.get(l.line) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const tied = lines.filter((l) => counts.get(l.line) === top);
  return (tied.find(hasOdds) ?? (tied[0] as SlateLine)).line;
}
