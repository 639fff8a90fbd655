/** Board objects → the contract's shapes, field order as in the spec. */
import type { Edge, FairProbability, Game, PlayerProp, Projection, ScanRow } from '@propsfeed/contract';
import type { BoardGame, BoardProp } from '../board/types';

export function gameOf(g: BoardGame): Game {
  const game: Game = {
    id: g.id,
    sport: g.sport,
    homeTeam: g.homeTeam,
    awayTeam: g.awayTeam,
    startTime: g.startTime,
    live: g.live,
    state: g.state,
    source: g.source,
  };
  if (g.aliases.length > 0) game.aliases = [...g.aliases];
  if (g.score) game.score = { home: g.score.home, away: g.score.away };
  if (g.clock !== undefined) game.clock = g.clock;
  return game;
}

export function propOf(p: BoardProp): PlayerProp {
  // Built field by field so the JSON keeps the spec's field order and omits absent ones.
  const prop = { player: p.player, stat: p.stat, line: p.line } as PlayerProp;
  if (p.overOdds !== undefined) prop.overOdds = p.overOdds;
  if (p.underOdds !== undefined) prop.underOdds = p.underOdds;
  prop.bookCount = p.bookCount;
  if (p.photoUrl !== undefined) prop.photoUrl = p.photoUrl;
  if (p.playerId !== undefined) prop.playerId = p.playerId;
  if (p.team !== undefined) prop.team = p.team;
  if (p.liveValue !== undefined) prop.liveValue = p.liveValue;
  if (p.gameClock !== undefined) prop.gameClock = p.gameClock;
  prop.gameState = p.gameState;
  prop.books = p.books.map((b) => {
    const line: NonNullable<PlayerProp['books']>[number] = { source: b.source, line: b.line };
    if (b.overOdds !== undefined) line.overOdds = b.overOdds;
    if (b.underOdds !== undefined) line.underOdds = b.underOdds;
    return line;
  });
  return prop;
}

/** What a row carries for tiers with edges. */
export interface RowOdds {
  probabilities?: FairProbability[] | undefined;
  edge?: Edge | undefined;
  /** Why some of the chances carry no edge (PropOdds.withheld). */
  edgeWithheld?: string | undefined;
}

/** A row's fields that come from the game and the prop alone (all before `fetchedAt`). */
function rowHeadOf(g: BoardGame, p: BoardProp): ScanRow {
  return {
    ...propOf(p),
    eventId: g.id,
    sport: g.sport,
    homeTeam: g.homeTeam,
    awayTeam: g.awayTeam,
    startTime: g.startTime,
    source: g.source,
  } as ScanRow;
}

export function scanRowOf(
  g: BoardGame,
  p: BoardProp,
  fetchedAt: number,
  projection?: Projection,
  odds?: RowOdds,
): ScanRow {
  const row = rowHeadOf(g, p);
  row.fetchedAt = fetchedAt;
  if (projection) row.propsfeedProjection = projection;
  if (odds?.probabilities) row.probabilities = odds.probabilities;
  if (odds?.edge) row.edge = odds.edge;
  if (odds?.edgeWithheld) row.edgeWithheld = odds.edgeWithheld;
  return row;
}

/**
 * A row's JSON up to its `fetchedAt`: the prop's and the game's fields, which stay the same
 * while the merger keeps the prop's object (an unchanged prop keeps it from board to board).
 * Kept per prop object, so a new board serializes only the props that changed.
 */
const rowHeads = new WeakMap<BoardProp, { game: BoardGame; head: string }>();
/** Projections and probabilities are kept objects too (per game-log version, per quotes). */
const fieldJson = new WeakMap<object, string>();

function jsonOf(value: object): string {
  let json = fieldJson.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    fieldJson.set(value, json);
  }
  return json;
}

/** JSON.stringify(scanRowOf(g, p, fetchedAt, projection, odds)), from kept parts. */
export function scanRowJson(
  g: BoardGame,
  p: BoardProp,
  fetchedAt: number,
  projection?: Projection,
  odds?: RowOdds,
): string {
  let cached = rowHeads.get(p);
  if (cached?.game !== g) {
    cached = { game: g, head: JSON.stringify(rowHeadOf(g, p)).slice(0, -1) };
    rowHeads.set(p, cached);
  }
  let json = `${cached.head},"fetchedAt":${fetchedAt}`;
  if (projection) json += `,"propsfeedProjection":${jsonOf(projection)}`;
  if (odds?.probabilities) json += `,"probabilities":${jsonOf(odds.probabilities)}`;
  if (odds?.edge) json += `,"edge":${JSON.stringify(odds.edge)}`;
  if (odds?.edgeWithheld) json += `,"edgeWithheld":${JSON.stringify(odds.edgeWithheld)}`;
  return `${json}}`;
}
