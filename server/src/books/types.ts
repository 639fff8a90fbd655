/**
 * One book's slate, normalized: what each adapter turns its wire format into and what the
 * merge reads. Ids carry the book prefix (`pp_…`, `ud_…`); stats are catalog keys.
 */
import type { Book, GameState, SportId } from '@propsfeed/contract';
import type { GameScore, QuotedLine } from '../board/types';

const isPoints = (n: number | undefined): n is number => n !== undefined && Number.isInteger(n) && n >= 0;

/** A score from a book's two numbers, when both are whole and not negative. */
export function scoreFrom(home: number | undefined, away: number | undefined): GameScore | undefined {
  return isPoints(home) && isPoints(away) ? { home, away } : undefined;
}

export interface SlateGame {
  id: string;
  sport: SportId;
  homeTeam: string;
  awayTeam: string;
  /** False when the payload does not say which team is at home (older PrizePicks). */
  homeKnown: boolean;
  startMs: number;
  state: GameState;
  /** '<period> <m:ss>' while live. */
  clock?: string;
  /** While live or final, from a book that reports it. */
  score?: GameScore;
}

/** One book's line; `liveValue` is the running value as this book reports it. */
export interface SlateLine extends QuotedLine {
  gameId: string;
}

/**
 * A line with every field present, in one order (absent ones undefined): lines of one shape
 * keep the feed's per-poll comparison of thousands of lines fast.
 */
export function newSlateLine(l: Pick<SlateLine, 'gameId' | 'player' | 'playerKey' | 'stat' | 'line'>): SlateLine {
  return {
    gameId: l.gameId,
    player: l.player,
    playerKey: l.playerKey,
    playerId: undefined,
    photoUrl: undefined,
    team: undefined,
    stat: l.stat,
    line: l.line,
    overOdds: undefined,
    underOdds: undefined,
    liveValue: undefined,
  };
}

export interface Slate {
  book: Book;
  games: SlateGame[];
  lines: SlateLine[];
}

/** What parsing one payload gave: the slate plus what was left out and why. */
export interface ParseResult {
  slate: Slate;
  /** Items that failed to parse (missing fields, bad numbers, dangling references). */
  skipped: number;
  /** Book stat names with no stat key, by how often they were seen. */
  unmapped: Record<string, number>;
}
