/**
 * GET /context/player: one player's averages, recent form and hit rates per stat, from their
 * game logs and the line on the caller's view of the board.
 */
import {
  type PlayerContextParams,
  type PlayerContextResponse,
  type SportId,
  STAT_KEYS,
  type StatContext,
} from '@propsfeed/contract';
import type { Caller } from '../auth/caller';
import { ApiError } from '../errors/apiError';
import type { GameLog } from '../history/types';
import { statContext } from '../stats/context';
import type { GameLogIndex, IndexedPlayer } from '../stats/gameLogIndex';
import { projectStat } from '../stats/projection';
import type { BoardViews } from '../views';
import { AnswersPer } from '../views/answers';
import { Prepared } from '../views/prepared';
import type { QueryDeps } from './deps';
import { type BoardPlayer, findPlayer, playersOnBoard, requestedSports } from './players';
import { assertStatsOfSport } from './statOfSport';

/** Answers per board view, by game-log version, sport, stat and name: each built once. */
const answers = new AnswersPer<BoardViews, Prepared<PlayerContextResponse>>(1024);

export function playerContextQuery(
  deps: QueryDeps,
  caller: Caller,
  params: PlayerContextParams,
  gameLogs: GameLogIndex,
): Prepared<PlayerContextResponse> {
  const sports = requestedSports(caller, params.sport);
  if (params.sport && params.stat !== undefined) assertStatsOfSport(params.sport, [params.stat]);
  const views = deps.views.views(caller.view, caller.policy.delayMs, deps.now());
  const key = `${gameLogs.version}|${sports.join(',')}|${params.stat ?? ''}|${params.name}`;
  return answers.getOrBuild(views, key, () => Prepared.of(playerContext(views, sports, params, gameLogs)));
}

function playerContext(
  views: BoardViews,
  sports: readonly SportId[],
  params: PlayerContextParams,
  gameLogs: GameLogIndex,
): PlayerContextResponse {
  const onBoard = playersOnBoard(views);

  // Board players first, so a player on today's board shows under the board's spelling.
  const candidates: (BoardPlayer | IndexedPlayer)[] = [...onBoard.values()].filter((p) => sports.includes(p.sport));
  for (const p of gameLogs.allPlayers()) if (sports.includes(p.sport)) candidates.push(p);
  const found = findPlayer(params.name, candidates);
  if (!found) throw new ApiError('not_found', `no player matches '${params.name}'`);

  const { sport, playerKey } = found;
  if (params.stat !== undefined) assertStatsOfSport(sport, [params.stat]);
  const boardPlayer = onBoard.get(`${sport}|${playerKey}`);
  const logged = gameLogs.player(sport, playerKey);

  // The line of each stat: the first prop, in board order, of a game the caller may see.
  const lines = new Map<string, number>();
  for (const { game, prop } of boardPlayer?.props ?? []) {
    if (views.showsProps(game) && !lines.has(prop.stat)) lines.set(prop.stat, prop.line);
  }
  // A game still pre-game or live on the caller's board is not in their sample yet, even if
  // it has since gone final (a delayed view must not learn its result early).
  const unfinished = (boardPlayer?.props ?? [])
    .filter(({ game }) => game.state !== 'final')
    .map(({ game }) => ({ date: game.startTime.slice(0, 10), teams: [game.homeTeam, game.awayTeam] }));
  const visible = (log: GameLog) => !unfinished.some((g) => g.date === log.date && g.teams.includes(log.opponent));

  const statKeys =
    params.stat !== undefined
      ? [params.stat]
      : [...new Set([...(logged?.byStat.keys() ?? []), ...lines.keys()])].sort(byCatalogOrder(sport));
  const stats = statKeys.map((stat): StatContext => {
    const logs = (logged?.byStat.get(stat) ?? []).filter(visible);
    const context: StatContext = statContext(sport, stat, logs, lines.get(stat) ?? null);
    const projection = projectStat(sport, stat, logs);
    if (projection) context.propsfeedProjection = projection;
    return context;
  });

  const response: PlayerContextResponse = { player: found.name, sport, stats };
  const team = boardPlayer?.team ?? logged?.team;
  if (team) response.team = team;
  return response;
}

function byCatalogOrder(sport: SportId): (a: string, b: string) => number {
  const keys = STAT_KEYS[sport] as readonly string[];
  const rank = (s: string) => (keys.includes(s) ? keys.indexOf(s) : keys.length);
  return (a, b) => rank(a) - rank(b) || a.localeCompare(b);
}
