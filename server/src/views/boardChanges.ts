/**
 * What changed from one board to the next, as the stream tells it: per game in board order,
 * the game when it is new or its state, score or clock moved, then each prop that is new or whose
 * line, odds, state or live value moved; then the props pulled, game by game. The k-th event
 * of the change to board N has the id `N.k`: the board's version is assigned where the board
 * changes (the feed, or the ingest leader on the shared engines) and the diff of two boards
 * is the same wherever it is computed, so the ids are the same on every replica.
 */
import type { Board, BoardGame, BoardProp } from '../board/types';

export type ChangeEvent =
  | { kind: 'game'; game: BoardGame }
  | { kind: 'prop'; game: BoardGame; prop: BoardProp; previous: BoardProp | undefined }
  | { kind: 'prop.removed'; game: BoardGame; prop: BoardProp };

export interface BoardChange {
  /** The version of the board the change leads to: the events' id is `version.k`. */
  version: number;
  /** The version of the board it was computed from. */
  previousVersion: number;
  /**
   * The board it was computed from: what a view showed before the change (a minEdge view
   * judges a prop's old row on it). The window holds it anyway (the change before's board, or its base).
   */
  previous: Board;
  board: Board;
  events: ChangeEvent[];
}

const propKeyOf = (p: BoardProp) => `${p.playerKey}\u0000${p.stat}`;

function sameGameHead(a: BoardGame, b: BoardGame): boolean {
  return (
    a.state === b.state &&
    a.clock === b.clock &&
    a.score?.home === b.score?.home &&
    a.score?.away === b.score?.away &&
    a.startTime === b.startTime &&
    a.homeTeam === b.homeTeam &&
    a.awayTeam === b.awayTeam &&
    a.aliases.join() === b.aliases.join()
  );
}

/** Whether a client would see a difference: line, odds, state, live value, clock, books. */
function sameProp(a: BoardProp, b: BoardProp): boolean {
  if (a === b) return true;
  if (
    a.line !== b.line ||
    a.overOdds !== b.overOdds ||
    a.underOdds !== b.underOdds ||
    a.gameState !== b.gameState ||
    a.liveValue !== b.liveValue ||
    a.gameClock !== b.gameClock ||
    a.player !== b.player ||
    a.books.length !== b.books.length
  ) {
    return false;
  }
  for (let i = 0; i < a.books.length; i++) {
    const x = a.books[i] as BoardProp['books'][number];
    const y = b.books[i] as BoardProp['books'][number];
    if (x.source !== y.source || x.line !== y.line || x.overOdds !== y.overOdds || x.underOdds !== y.underOdds) {
      return false;
    }
  }
  return true;
}

/** The events leading from `prev` to `next`. Games kept as the same object are skipped whole. */
export function boardChange(prev: Board, next: Board): BoardChange {
  const events: ChangeEvent[] = [];
  const removed: ChangeEvent[] = [];
  for (const game of next.games) {
    const before = prev.gameById.get(game.id);
    if (before === game) continue;
    if (!before || before.id !== game.id || !sameGameHead(before, game)) events.push({ kind: 'game', game });
    const old = new Map<string, BoardProp>();
    if (before && before.id === game.id) for (const p of before.props) old.set(propKeyOf(p), p);
    for (const prop of game.props) {
      const key = propKeyOf(prop);
      const previous = old.get(key);
      old.delete(key);
      if (previous && sameProp(previous, prop)) continue;
      events.push({ kind: 'prop', game, prop, previous });
    }
    for (const prop of old.values()) removed.push({ kind: 'prop.removed', game, prop });
  }
  for (const game of prev.games) {
    const after = next.gameById.get(game.id);
    if (after && after.id === game.id) continue;
    for (const prop of game.props) removed.push({ kind: 'prop.removed', game, prop });
  }
  for (const e of removed) events.push(e);
  return { version: next.version, previousVersion: prev.version, previous: prev, board: next, events };
}
