/** A small realistic board used across route tests: one live and two pre-game NBA games, one MLB game. */
import type { GameSpec } from './board';

export const LIVE_GAME: GameSpec = {
  id: 'pp_1001',
  aliases: ['ud_9001'],
  live: true,
  homeTeam: 'Boston Celtics',
  awayTeam: 'Miami Heat',
  startTime: '2026-11-22T00:00:00.000Z',
  props: [
    { player: 'Jayson Tatum', stat: 'points', line: 27.5, liveValue: 12 },
    { player: 'Bam Adebayo', stat: 'rebounds', line: 9.5, liveValue: 4 },
  ],
};

export const PRE_GAME: GameSpec = {
  id: 'pp_1002',
  aliases: ['ud_9002'],
  startTime: '2026-11-22T02:00:00.000Z',
  props: [
    { player: 'Nikola Jokic', stat: 'pra', line: 48.5, overOdds: -120, underOdds: 100 },
    { player: 'Nikola Jokic', stat: 'points', line: 26.5 },
    { player: 'LeBron James', stat: 'points', line: 24.5, books: ['prizepicks'] },
  ],
};

export const LATE_GAME: GameSpec = {
  id: 'ud_1003',
  startTime: '2026-11-22T03:30:00.000Z',
  homeTeam: 'Golden State Warriors',
  awayTeam: 'Phoenix Suns',
  props: [{ player: 'Stephen Curry', stat: 'threes', line: 4.5, books: ['underdog'] }],
};

export const MLB_GAME: GameSpec = {
  id: 'pp_2001',
  sport: 'mlb',
  homeTeam: 'New York Yankees',
  awayTeam: 'Boston Red Sox',
  props: [{ player: 'Gerrit Cole', stat: 'strikeouts', line: 7.5 }],
};

export const NFL_GAME: GameSpec = {
  id: 'pp_3001',
  sport: 'nfl',
  homeTeam: 'Kansas City Chiefs',
  awayTeam: 'Buffalo Bills',
  props: [{ player: 'Patrick Mahomes', stat: 'passing_yards', line: 275.5 }],
};

export const ALL_GAMES: GameSpec[] = [PRE_GAME, LATE_GAME, LIVE_GAME, MLB_GAME, NFL_GAME];
