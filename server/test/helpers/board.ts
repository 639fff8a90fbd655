/**
 * Hand-built boards for tests: compact game/prop specs → a Board, and a BoardSource whose
 * history is the boards it was given (so `at()` behaves like the real feed's).
 */
import { type Book, GAME_STATE_ORDER, type GameState, type SportId } from '@propsfeed/contract';
import {
  type Board,
  type BoardGame,
  type BoardProp,
  type BoardSource,
  type BookHealth,
  EMPTY_BOARD,
  gamesById,
} from '../../src/board/types';

export interface PropSpec {
  player: string;
  stat: string;
  line: number;
  overOdds?: number;
  underOdds?: number;
  team?: string;
  liveValue?: number;
  /** Books posting it; default both, with odds from underdog only. */
  books?: Book[];
}

export interface GameSpec {
  id: string;
  sport?: SportId;
  homeTeam?: string;
  awayTeam?: string;
  startTime?: string;
  live?: boolean;
  /** Default: live when `live`, else pre. */
  state?: GameState;
  /** A final game's: when the first board showed it final (default: the board's fetchedAt). */
  finalAt?: number;
  aliases?: string[];
  props?: PropSpec[];
}

function propOf(spec: PropSpec, state: GameState, updatedAt: number): BoardProp {
  const live = state === 'live';
  const books = spec.books ?? ['prizepicks', 'underdog'];
  const prop: BoardProp = {
    player: spec.player,
    playerKey: `${spec.player.toLowerCase()}|${spec.team ?? 'team'}`,
    team: spec.team ?? 'team',
    stat: spec.stat,
    line: spec.line,
    bookCount: books.length,
    books: books.map((source) =>
      source === 'underdog'
        ? { source, line: spec.line, overOdds: spec.overOdds ?? -115, underOdds: spec.underOdds ?? -105, updatedAt }
        : { source, line: spec.line, updatedAt },
    ),
    gameState: state,
  };
  if (books.includes('underdog')) {
    prop.overOdds = spec.overOdds ?? -115;
    prop.underOdds = spec.underOdds ?? -105;
  }
  if (state !== 'pre') prop.liveValue = spec.liveValue ?? 3;
  if (live) prop.gameClock = 'Q2 5:31';
  return prop;
}

export function gameOf(spec: GameSpec, fetchedAt: number): BoardGame {
  const state = spec.state ?? (spec.live ? 'live' : 'pre');
  const live = state === 'live';
  const startTime = spec.startTime ?? '2026-11-22T02:00:00.000Z';
  const props = (spec.props ?? []).map((p) => propOf(p, state, fetchedAt));
  props.sort((a, b) => a.player.localeCompare(b.player) || a.stat.localeCompare(b.stat));
  const sources = [...new Set(props.flatMap((p) => p.books.map((b) => b.source)))].sort();
  const game: BoardGame = {
    id: spec.id,
    aliases: spec.aliases ?? [],
    sport: spec.sport ?? 'nba',
    homeTeam: spec.homeTeam ?? 'Denver Nuggets',
    awayTeam: spec.awayTeam ?? 'Los Angeles Lakers',
    startTime,
    startMs: Date.parse(startTime),
    state,
    live,
    source: spec.id.startsWith('ud_') ? 'underdog' : 'prizepicks',
    sources: sources.length > 0 ? (sources as Book[]) : ['prizepicks'],
    props,
  };
  if (live) game.clock = 'Q2 5:31';
  if (state === 'final') game.finalAt = spec.finalAt ?? fetchedAt;
  return game;
}

let versions = 0;

/** A board of the given games, ordered as the feed orders them (live, pre, final; start; id). */
export function buildBoard(specs: GameSpec[], fetchedAt = Date.now()): Board {
  const games = specs.map((s) => gameOf(s, fetchedAt));
  games.sort(
    (a, b) =>
      GAME_STATE_ORDER[a.state] - GAME_STATE_ORDER[b.state] || a.startMs - b.startMs || a.id.localeCompare(b.id),
  );
  versions += 1;
  return { version: versions, fetchedAt, games, gameById: gamesById(games) };
}

/** `n` props spread over games, for scans and caps: players P000…, stat points. */
export function manyProps(n: number): PropSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    player: `Player ${String(i).padStart(4, '0')}`,
    stat: (['points', 'rebounds', 'assists', 'threes', 'pra'] as const)[i % 5] ?? 'points',
    line: 10.5 + (i % 20),
  }));
}

/** A BoardSource over boards published in order; `at()` answers from that history. */
export class TestBoardSource implements BoardSource {
  private history: Board[] = [];
  private listeners = new Set<(board: Board) => void>();
  healthRows: BookHealth[] = [];
  isReady = true;

  constructor(...boards: Board[]) {
    for (const b of boards) this.publish(b);
  }

  publish(board: Board): void {
    this.history.push(board);
    for (const l of this.listeners) l(board);
  }

  current(): Board {
    return this.history.at(-1) ?? EMPTY_BOARD;
  }

  at(atMs: number): Board {
    let found: Board = EMPTY_BOARD;
    for (const b of this.history) if (b.fetchedAt <= atMs) found = b;
    return found;
  }

  subscribe(listener: (board: Board) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  health(): BookHealth[] {
    return this.healthRows;
  }

  ready(): boolean {
    return this.isReady;
  }
}
