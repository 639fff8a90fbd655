/** Small boards for the replication tests: a few games whose lines a test can move. */
import type { Board, BoardGame, BookHealth } from '../../src/board/types';

export function game(id: string, line: number, startMs = Date.UTC(2026, 10, 22, 1)): BoardGame {
  return {
    id,
    aliases: [`ud_${id.slice(3)}`],
    sport: 'nba',
    homeTeam: `Home ${id}`,
    awayTeam: `Away ${id}`,
    startTime: new Date(startMs).toISOString(),
    startMs,
    state: 'pre',
    live: false,
    source: 'prizepicks',
    sources: ['prizepicks', 'underdog'],
    props: [
      {
        player: `Player ${id}`,
        playerKey: `player ${id}|home`,
        stat: 'points',
        line,
        overOdds: -110,
        underOdds: -110,
        bookCount: 2,
        books: [
          { source: 'prizepicks', line, updatedAt: 1 },
          { source: 'underdog', line, overOdds: -110, underOdds: -110, updatedAt: 1 },
        ],
        gameState: 'pre',
      },
    ],
  };
}

export function board(version: number, fetchedAt: number, games: BoardGame[]): Board {
  const gameById = new Map<string, BoardGame>();
  for (const g of games) {
    gameById.set(g.id, g);
    for (const a of g.aliases) gameById.set(a, g);
  }
  return { version, fetchedAt, games, gameById };
}

export const HEALTH: BookHealth[] = [
  {
    source: 'prizepicks',
    fetchedAt: 1,
    lastAttemptAt: 1,
    lastError: null,
    errorCount: 0,
    consecutiveFailures: 0,
    skippedItems: 0,
    unmappedStats: {},
  },
];
