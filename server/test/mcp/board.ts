/**
 * The app the MCP transport tests run against: two NBA games and one MLB game, with line
 * history and game logs for LeBron James' points, so every tool has data to answer with.
 */

import { type BoardRoutesApp, buildBoardRoutesApp, logsOf, MIN, NOW } from '../board-routes/setup';
import type { GameSpec } from '../helpers/board';

export const MCP_GAMES: GameSpec[] = [
  {
    id: 'pp_100',
    homeTeam: 'Los Angeles Lakers',
    awayTeam: 'Boston Celtics',
    startTime: '2026-11-22T03:30:00.000Z',
    aliases: ['ud_100'],
    props: [
      { player: 'LeBron James', stat: 'points', line: 25.5, team: 'LAL' },
      { player: 'LeBron James', stat: 'rebounds', line: 7.5, team: 'LAL' },
      { player: 'Jayson Tatum', stat: 'points', line: 27.5, team: 'BOS' },
    ],
  },
  {
    id: 'ud_200',
    homeTeam: 'New York Knicks',
    awayTeam: 'Golden State Warriors',
    startTime: '2026-11-22T02:30:00.000Z',
    props: [{ player: 'Jalen Brunson', stat: 'points', line: 26.5, team: 'NYK' }],
  },
  {
    id: 'pp_300',
    sport: 'mlb',
    homeTeam: 'Los Angeles Dodgers',
    awayTeam: 'New York Yankees',
    startTime: '2026-11-22T02:10:00.000Z',
    props: [{ player: 'Gerrit Cole', stat: 'strikeouts', line: 7.5, team: 'NYY' }],
  },
];

export function buildMcpApp(): Promise<BoardRoutesApp> {
  return buildBoardRoutesApp({
    current: MCP_GAMES,
    history: ({ prop }) => {
      const lebron = prop('LeBron James', 'points');
      const game = { sport: 'nba', homeTeam: 'Los Angeles Lakers', awayTeam: 'Boston Celtics' } as const;
      const startMs = Date.parse('2026-11-22T03:30:00.000Z');
      const change = {
        sport: 'nba',
        gameId: 'ud_100',
        playerKey: lebron.playerKey,
        player: lebron.player,
        stat: 'points',
      } as const;
      return {
        games: [
          { id: 'pp_100', mergedId: 'pp_100', book: 'prizepicks', startMs, ...game },
          { id: 'ud_100', mergedId: 'pp_100', book: 'underdog', startMs, ...game },
        ],
        changes: [
          { ...change, book: 'underdog', at: NOW - 90 * MIN, line: 24.5, overOdds: -110, underOdds: -110 },
          { ...change, book: 'underdog', at: NOW - 40 * MIN, line: 25.5, overOdds: -115, underOdds: -105 },
          { ...change, book: 'prizepicks', gameId: 'pp_100', at: NOW - 90 * MIN, line: 25.5 },
        ],
      };
    },
    logs: ({ prop }) => logsOf(prop('LeBron James', 'points'), 'nba', 'points', [31, 22, 27, 25, 30, 28]),
  });
}
