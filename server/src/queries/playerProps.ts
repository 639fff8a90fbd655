/**
 * GET /props/player: every active prop of one player, found by a forgiving name, as scan rows
 * of the caller's view of the board (delayed for the free tier, no live rows without live lines).
 */
import type { PlayerPropsParams, PlayerPropsResponse, ScanRow, SportId } from '@propsfeed/contract';
import type { Caller } from '../auth/caller';
import type { GameLogIndex } from '../stats/gameLogIndex';
import type { BoardViews } from '../views';
import { scanRowOf } from '../views/encode';
import { BoundedMap, Prepared } from '../views/prepared';
import type { QueryDeps } from './deps';
import { findPlayer, isActiveFor, playersOnBoard, requestedSports } from './players';

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
