/**
 * GET /props/player: every active prop of one player, found by a forgiving name, as scan rows
 * of the caller's view of the board (delayed for the free tier, no live rows without live lines):
 * the rows the scan gives for that player, under the same `state` rule.
 */
import type { PlayerPropsParams, PlayerPropsResponse, ScanRow, SportId, StateFilter } from '@propsfeed/contract';
import { assertStateAllowed } from '../auth/access';
import type { Caller } from '../auth/caller';
import type { GameLogIndex } from '../stats/gameLogIndex';
import type { BoardViews } from '../views';
import { AnswersPer } from '../views/answers';
import { propsShown } from '../views/gameState';
import { Prepared } from '../views/prepared';
import type { QueryDeps } from './deps';
import { findPlayer, playersOnBoard, requestedSports } from './players';

/** Answers per board view, by sport, state and name as asked: each is built once per board. */
const answers = new AnswersPer<BoardViews, Prepared<PlayerPropsResponse>>(1024);

export function playerPropsQuery(
  deps: QueryDeps,
  caller: Caller,
  params: PlayerPropsParams,
  gameLogs: GameLogIndex | undefined,
): Prepared<PlayerPropsResponse> {
  const sports = requestedSports(caller, params.sport);
  assertStateAllowed(caller, params.state);
  const views = deps.views.views(caller.view, caller.policy.delayMs, deps.now());
  // The view decides delay and live rows; the tier the sports; the logs the projections.
  const key = `${gameLogs?.version ?? 0}|${sports.join(',')}|${params.state ?? ''}|${params.name}`;
  return answers.getOrBuild(views, key, () =>
    Prepared.of(playerProps(caller, views, sports, params.name, params.state, gameLogs)),
  );
}

function playerProps(
  caller: Caller,
  views: BoardViews,
  sports: readonly SportId[],
  name: string,
  state: StateFilter | undefined,
  gameLogs: GameLogIndex | undefined,
): PlayerPropsResponse {
  const delayed = caller.view.delayed;
  // Only players with a prop of a game in the state asked for: by default, a finished game's
  // player neither matches nor makes a name ambiguous. (A live one does: without live lines,
  // the player is found with no rows.)
  const onBoard = [...playersOnBoard(views).values()].filter(
    (p) => sports.includes(p.sport) && p.props.some(({ game }) => propsShown(state, game)),
  );
  const player = findPlayer(name, onBoard);
  if (!player) return { query: name, player: null, count: 0, rows: [], delayed };

  const rows: ScanRow[] = [];
  for (const { game, prop } of player.props) {
    if (!views.showsProps(game, state)) continue;
    rows.push(views.scanRow(game, prop, gameLogs?.get(game.sport, prop.playerKey, prop.stat)));
  }
  return { query: name, player: player.name, count: rows.length, rows, delayed };
}
