/** The hand-built slate the board-route tests share. */
import type { SportId } from '@propsfeed/contract';
import type { BoardProp } from '../../src/board/types';
import type { HistoryGame, LineChange } from '../../src/history/lineHistory';
import type { GameSpec } from '../helpers/board';

const MIN = 60_000;

export const DEN_LAL: GameSpec = {
  id: 'pp_1002',
  aliases: ['ud_9002'],
  startTime: '2026-11-22T02:00:00.000Z',
  homeTeam: 'Denver Nuggets',
  awayTeam: 'Los Angeles Lakers',
  props: [
    { player: 'Nikola Jokić', team: 'Denver Nuggets', stat: 'points', line: 27.5 },
    { player: 'Nikola Jokić', team: 'Denver Nuggets', stat: 'rebounds', line: 12.5, overOdds: -140, underOdds: 120 },
    { player: 'Nikola Jokić', team: 'Denver Nuggets', stat: 'pra', line: 48.5, overOdds: -130, underOdds: 110 },
    { player: 'LeBron James', team: 'Los Angeles Lakers', stat: 'points', line: 24.5 },
  ],
};

/** Twenty minutes ago: Jokić's points line was a point lower. */
export const DEN_LAL_PAST: GameSpec = {
  ...DEN_LAL,
  props: (DEN_LAL.props ?? []).map((p) =>
    p.stat === 'points' && p.player === 'Nikola Jokić' ? { ...p, line: 26.5 } : p,
  ),
};

export const CHA_MEM_LIVE: GameSpec = {
  id: 'pp_1001',
  live: true,
  startTime: '2026-11-22T00:00:00.000Z',
  homeTeam: 'Charlotte Hornets',
  awayTeam: 'Memphis Grizzlies',
  props: [
    { player: 'Miles Bridges', team: 'Charlotte Hornets', stat: 'points', line: 18.5, liveValue: 9 },
    { player: 'Jaren Jackson Jr.', team: 'Memphis Grizzlies', stat: 'points', line: 20.5, liveValue: 11 },
  ],
};

export const NYK_BOS: GameSpec = {
  id: 'ud_1003',
  startTime: '2026-11-22T03:30:00.000Z',
  homeTeam: 'New York Knicks',
  awayTeam: 'Boston Celtics',
  props: [{ player: 'Mikal Bridges', team: 'New York Knicks', stat: 'points', line: 15.5 }],
};

export const NYY_BOS: GameSpec = {
  id: 'pp_2001',
  sport: 'mlb',
  homeTeam: 'New York Yankees',
  awayTeam: 'Boston Red Sox',
  props: [{ player: 'Aaron Judge', team: 'New York Yankees', stat: 'total_bases', line: 1.5 }],
};

export const EDM_CGY: GameSpec = {
  id: 'pp_3001',
  sport: 'nhl',
  homeTeam: 'Edmonton Oilers',
  awayTeam: 'Calgary Flames',
  props: [{ player: 'Connor McDavid', team: 'Edmonton Oilers', stat: 'points', line: 1.5 }],
};

export const CURRENT = [DEN_LAL, CHA_MEM_LIVE, NYK_BOS, NYY_BOS, EDM_CGY];
export const PAST = [DEN_LAL_PAST, { ...CHA_MEM_LIVE, live: false }, NYK_BOS, NYY_BOS, EDM_CGY];

/** Jokić's points, newest first: 12 games of this season (every other day back from 2026-11-20). */
export const JOKIC_POINTS = [30, 22, 25, 18, 28, 31, 20, 24, 27, 19, 26, 40];
/** Jokić's rebounds: only 4 games, one short of a projection. */
export const JOKIC_REBOUNDS = [12, 14, 9, 11];

const HOUR = 3_600_000;

/**
 * Line history of the slate, relative to `now`. Jokić points at PrizePicks: pulled 2 h ago and
 * posted again unchanged (one repeated point to drop). An old game off the board carries 600
 * changes (more than one answer holds).
 */
export function slateHistory(prop: (player: string, stat: string) => BoardProp, now: number) {
  const games: HistoryGame[] = [
    game('pp_1002', 'pp_1002', 'prizepicks', 'nba', 'Denver Nuggets', 'Los Angeles Lakers'),
    game('ud_9002', 'pp_1002', 'underdog', 'nba', 'Denver Nuggets', 'Los Angeles Lakers'),
    game('pp_1001', 'pp_1001', 'prizepicks', 'nba', 'Charlotte Hornets', 'Memphis Grizzlies'),
    game('ud_1003', 'ud_1003', 'underdog', 'nba', 'New York Knicks', 'Boston Celtics'),
    game('pp_2001', 'pp_2001', 'prizepicks', 'mlb', 'New York Yankees', 'Boston Red Sox'),
    game('pp_3001', 'pp_3001', 'prizepicks', 'nhl', 'Edmonton Oilers', 'Calgary Flames'),
    game('pp_7007', 'pp_7007', 'prizepicks', 'nba', 'Utah Jazz', 'Sacramento Kings'),
  ];
  const changes: LineChange[] = [];
  const at =
    (book: 'prizepicks' | 'underdog', gameId: string, p: BoardProp, sport: SportId) =>
    (ago: number, line: number | null, overOdds?: number, underOdds?: number) =>
      changes.push({
        book,
        sport,
        gameId,
        playerKey: p.playerKey,
        player: p.player,
        team: p.team,
        stat: p.stat,
        at: now - ago,
        line,
        overOdds,
        underOdds,
      });

  const jokicPoints = prop('Nikola Jokić', 'points');
  const ppJokic = at('prizepicks', 'pp_1002', jokicPoints, 'nba');
  ppJokic(6 * HOUR, 26.5);
  ppJokic(3 * HOUR, 27.5);
  ppJokic(2 * HOUR, null);
  ppJokic(1.5 * HOUR, 27.5);
  ppJokic(0.5 * HOUR, 28);
  ppJokic(5 * MIN, 27.5);
  const udJokic = at('underdog', 'ud_9002', jokicPoints, 'nba');
  udJokic(6 * HOUR, 26.5, -115, -105);
  udJokic(4 * HOUR, 26.5, -120, 100);
  udJokic(1 * HOUR, 27.5, -115, -105);

  const lebron = prop('LeBron James', 'points');
  const ppLebron = at('prizepicks', 'pp_1002', lebron, 'nba');
  ppLebron(6 * HOUR, 22.5);
  ppLebron(2 * HOUR, 23.5);
  ppLebron(10 * MIN, 24.5);
  const udLebron = at('underdog', 'ud_9002', lebron, 'nba');
  udLebron(6 * HOUR, 22.5, -115, -105);
  udLebron(10 * MIN, 24.5, -115, -105);

  const rebounds = prop('Nikola Jokić', 'rebounds');
  at('prizepicks', 'pp_1002', rebounds, 'nba')(6 * HOUR, 12.5);
  const udRebounds = at('underdog', 'ud_9002', rebounds, 'nba');
  udRebounds(6 * HOUR, 12.5, -115, -105);
  udRebounds(15 * MIN, 12.5, -140, 120);

  const pra = prop('Nikola Jokić', 'pra');
  const ppPra = at('prizepicks', 'pp_1002', pra, 'nba');
  ppPra(6 * HOUR, 47.5);
  ppPra(1 * HOUR, 48.5);
  const udPra = at('underdog', 'ud_9002', pra, 'nba');
  udPra(6 * HOUR, 47.5, -110, -110);
  udPra(1 * HOUR, 48.5, -130, 110);

  const mikal = prop('Mikal Bridges', 'points');
  at('prizepicks', 'ud_1003', mikal, 'nba')(6 * HOUR, 15.5);
  at('underdog', 'ud_1003', mikal, 'nba')(6 * HOUR, 15.5, -115, -105);

  const miles = prop('Miles Bridges', 'points');
  for (const book of ['prizepicks', 'underdog'] as const) {
    const odds = book === 'underdog' ? ([-115, -105] as const) : ([] as const);
    at(book, 'pp_1001', miles, 'nba')(3 * HOUR, 16.5, ...odds);
    at(book, 'pp_1001', miles, 'nba')(0.5 * HOUR, 18.5, ...odds);
  }

  const judge = prop('Aaron Judge', 'total_bases');
  for (const book of ['prizepicks', 'underdog'] as const) {
    const odds = book === 'underdog' ? ([-115, -105] as const) : ([] as const);
    at(book, 'pp_2001', judge, 'mlb')(6 * HOUR, 0.5, ...odds);
    at(book, 'pp_2001', judge, 'mlb')(1 * HOUR, 1.5, ...odds);
  }

  const oldTimer: BoardProp = {
    ...jokicPoints,
    player: 'Old Timer',
    playerKey: 'old timer|utah jazz',
    team: 'Utah Jazz',
  };
  const ppOld = at('prizepicks', 'pp_7007', oldTimer, 'nba');
  for (let i = 0; i < 600; i++) ppOld(10 * HOUR - i * 1000, i % 2 === 0 ? 10.5 : 11.5);

  return { games, changes };

  function game(
    id: string,
    mergedId: string,
    book: 'prizepicks' | 'underdog',
    sport: SportId,
    homeTeam: string,
    awayTeam: string,
  ): HistoryGame {
    return { id, mergedId, book, sport, homeTeam, awayTeam, startMs: Date.parse('2026-11-22T02:00:00.000Z') };
  }
}
