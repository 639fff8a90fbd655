/**
 * GET /props/player: every active prop of one player, found by a forgiving name, as scan rows
 * of the caller's view of the board (delayed for the free tier, no live rows without live lines).
 */
import type { PlayerPropsParams, PlayerPropsResponse, ScanRow, SportId } from '@propsfeed/contract';
import type { BoardGame, BoardProp } from '../feed/types';
import { ALL_SPORTS, allowsSport } from '../limits/policy';
import type { GameLogIndex } from '../stats/gameLogIndex';
import { candidateLabel, type SearchablePlayer, searchPlayers } from '../stats/playerSearch';
import type { BoardViews } from '../views';
import { scanRowOf } from '../views/encode';
import { BoundedMap, Prepared } from '../views/prepared';
import { assertSport } from './access';
import type { Caller } from './caller';
import type { QueryDeps } from './deps';
import { ApiError } from './errors';

/** A player on the board, with the props they have there, in board order. */
export interface BoardPlayer extends SearchablePlayer {
  props: { game: BoardGame; prop: BoardProp }[];
}

/** An ambiguous name: a 400 whose body lists the players it could mean. */
export class AmbiguousPlayerError extends ApiError {
  constructor(
    name: string,
    readonly candidates: string[],
  ) {
    super('invalid_request', `'${name}' matches more than one player: ${candidates.join('; ')}`);
  }

  override toBody() {
    return { ...super.toBody(), candidates: this.candidates };
  }
}

const boardPlayers = new WeakMap<BoardViews, Map<string, BoardPlayer>>();

/** The players of a view's board by sport and playerKey, built once per board and view. */
export function playersOnBoard(views: BoardViews): Map<string, BoardPlayer> {
  let players = boardPlayers.get(views);
  if (players) return players;
  players = new Map();
  for (const game of views.board.games) {
    for (const prop of game.props) {
      const id = `${game.sport}|${prop.playerKey}`;
      let player = players.get(id);
      if (!player) {
        player = { name: prop.player, playerKey: prop.playerKey, sport: game.sport, props: [] };
        if (prop.team) player.team = prop.team;
        players.set(id, player);
      }
      player.props.push({ game, prop });
    }
  }
  boardPlayers.set(views, players);
  return players;
}

/** The sports a request covers: the one named (if the tier allows it) or every sport of the tier. */
export function requestedSports(caller: Caller, sport: SportId | undefined): readonly SportId[] {
  if (sport === undefined) return ALL_SPORTS.filter((s) => allowsSport(caller.policy, s));
  assertSport(caller, sport);
  return [sport];
}

/** The one player a name means among `players`; undefined when none; a 400 when ambiguous. */
export function findPlayer<P extends SearchablePlayer>(name: string, players: Iterable<P>): P | undefined {
  const match = searchPlayers(name, players);
  if (match.kind === 'ambiguous') throw new AmbiguousPlayerError(name, match.candidates.map(candidateLabel));
  return match.kind === 'found' ? match.player : undefined;
}

/** A prop the caller may see as a row: not of a finished game, not live without live lines. */
export function isActiveFor(caller: Caller, game: BoardGame): boolean {
  return game.state !== 'final' && (caller.policy.liveLines || !game.live);
}

/** Answers per board view, by sport and name as asked: each is built once per board. */
const answers = new WeakMap<BoardViews, BoundedMap<string, Prepared<PlayerPropsResponse>>>();

export function playerPropsQuery(
  deps: QueryDeps,
  caller: Caller,
  params: PlayerPropsParams,
  gameLogs: GameLogIndex | undefined,
): Prepared<PlayerPropsResponse> {
  const sports = requestedSports(caller, params.sport);
  const views = deps.views.views(caller.view, caller.policy.delayMs, deps.now());
  let cache = answers.get(views);
  if (!cache) {
    cache = new BoundedMap(1024);
    answers.set(views, cache);
  }
  // The view decides delay and live rows; the tier the sports; the logs the projections.
  const key = `${gameLogs?.version ?? 0}|${sports.join(',')}|${params.name}`;
  let prepared = cache.get(key);
  if (!prepared) {
    prepared = Prepared.of(playerProps(caller, views, sports, params.name, gameLogs));
    cache.set(key, prepared);
  }
  return prepared;
}

function playerProps(
  caller: Caller,
  views: BoardViews,
  sports: readonly SportId[],
  name: string,
  gameLogs: GameLogIndex | undefined,
): PlayerPropsResponse {
  const delayed = caller.view.delayed;
  const onBoard = [...playersOnBoard(views).values()].filter((p) => sports.includes(p.sport));
  const player = findPlayer(name, onBoard);
  if (!player) return { query: name, player: null, count: 0, rows: [], delayed };

  const rows: ScanRow[] = [];
  for (const { game, prop } of player.props) {
    if (!isActiveFor(caller, game)) continue;
    rows.push(scanRowOf(game, prop, views.board.fetchedAt, gameLogs?.get(game.sport, prop.playerKey, prop.stat)));
  }
  return { query: name, player: player.name, count: rows.length, rows, delayed };
}
