/**
 * GET /props/player: every active prop of one player, found by a forgiving name, as scan rows
 * of the caller's view of the board (delayed for the free tier, no live rows without live lines).
 */
import type { PlayerPropsParams, PlayerPropsResponse, ScanRow, SportId } from '@propsfeed/contract';
import type { Caller } from '../auth/caller';
import type { GameLogIndex } from '../stats/gameLogIndex';
import type { BoardViews } from '../views';
import { AnswersPer, Prepared } from '../views/prepared';
import type { QueryDeps } from './deps';
import { findPlayer, isActiveFor, playersOnBoard, requestedSports } from './players';

/** Answers per board view, by sport and name as asked: each is built once per board. */
const answers = new AnswersPer<BoardViews, Prepared<PlayerPropsResponse>>(1024);

export function playerPropsQuery(
  deps: QueryDeps,
  caller: Caller,
  params: PlayerPropsParams,
  gameLogs: GameLogIndex | undefined,
): Prepared<PlayerPropsResponse> {
  const sports = requestedSports(caller, params.sport);
  const views = deps.views.views(caller.view, caller.policy.delayMs, deps.now());
  // The view decides delay and live rows; the tier the sports; the logs the projections.
  const key = `${gameLogs?.version ?? 0}|${sports.join(',')}|${params.name}`;
  return answers.getOrBuild(views, key, () => Prepared.of(playerProps(caller, views, sports, params.name, gameLogs)));
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
    rows.push(views.scanRow(game, prop, gameLogs?.get(game.sport, prop.playerKey, prop.stat)));
  }
  return { query: name, player: player.name, count: rows.length, rows, delayed };
}
