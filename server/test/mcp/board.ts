/** The slate the MCP transport tests serve: two NBA games (one live) and one MLB game. */
import { buildBoard, type GameSpec, TestBoardSource } from '../helpers/board';

export const MCP_GAMES: GameSpec[] = [
  {
    id: 'pp_100',
    homeTeam: 'Los Angeles Lakers',
    awayTeam: 'Boston Celtics',
    startTime: '2026-11-23T03:30:00.000Z',
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
    startTime: '2026-11-23T00:30:00.000Z',
    props: [{ player: 'Jalen Brunson', stat: 'points', line: 26.5, team: 'NYK' }],
  },
  {
    id: 'pp_300',
    sport: 'mlb',
    homeTeam: 'Los Angeles Dodgers',
    awayTeam: 'New York Yankees',
    startTime: '2026-11-23T01:10:00.000Z',
    props: [{ player: 'Gerrit Cole', stat: 'strikeouts', line: 7.5, team: 'NYY' }],
  },
];

/** Published an hour ago, so the free tier's delayed view sees the same slate as realtime tiers. */
export function mcpBoardSource(): TestBoardSource {
  return new TestBoardSource(buildBoard(MCP_GAMES, Date.now() - 60 * 60_000));
}
