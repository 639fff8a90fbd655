/**
 * What the simulator schedules per sport: real teams, a rolling schedule (a game every
 * `spacingMin`, each lasting `durationMin`), roster slots with stable means per base stat,
 * and the stat keys posted (combos are sums of base stats).
 */
import type { SportId } from '@propsfeed/contract';
import {
  LOL_TEAMS,
  MLB_TEAMS,
  NBA_TEAMS,
  NCAAB_TEAMS,
  NCAAF_TEAMS,
  NFL_TEAMS,
  NHL_TEAMS,
  SOCCER_TEAMS,
  WNBA_TEAMS,
} from '../books/teams';

export interface Slot {
  position: string;
  /** Mean per game of each base stat. */
  means: Record<string, number>;
  /** Stat keys posted for this slot: base stats or combos. */
  posted: readonly string[];
}

export interface SimSport {
  id: SportId;
  teams: readonly string[];
  spacingMin: number;
  durationMin: number;
  periods: number;
  /** True when the clock counts down within a period; null: the sport has no clock (baseball). */
  countdown: boolean | null;
  periodMin: number;
  slots: readonly Slot[];
  combos: Record<string, readonly string[]>;
}

const NBA_COMBOS = {
  pra: ['points', 'rebounds', 'assists'],
  pts_rebs: ['points', 'rebounds'],
  pts_asts: ['points', 'assists'],
  rebs_asts: ['rebounds', 'assists'],
  blks_stls: ['blocks', 'steals'],
};
const FOOTBALL_COMBOS = {
  rush_rec_yards: ['rushing_yards', 'receiving_yards'],
  pass_rush_yards: ['passing_yards', 'rushing_yards'],
};

const hoops = (scale: number): Slot[] => [
  {
    position: 'PG',
    means: { points: 24 * scale, rebounds: 4.5, assists: 8, threes: 2.8, steals: 1.3, blocks: 0.3, turnovers: 3.1 },
    posted: ['points', 'assists', 'threes', 'pra', 'pts_asts', 'turnovers'],
  },
  {
    position: 'SG',
    means: { points: 20 * scale, rebounds: 4, assists: 4, threes: 3.1, steals: 1.1, blocks: 0.4, turnovers: 2 },
    posted: ['points', 'rebounds', 'threes', 'pra', 'pts_rebs', 'steals'],
  },
  {
    position: 'SF',
    means: { points: 18 * scale, rebounds: 6, assists: 3.5, threes: 2, steals: 1, blocks: 0.7, turnovers: 1.8 },
    posted: ['points', 'rebounds', 'assists', 'pra', 'rebs_asts', 'blks_stls'],
  },
  {
    position: 'PF',
    means: { points: 16 * scale, rebounds: 8.5, assists: 2.5, threes: 1.2, steals: 0.8, blocks: 1.1, turnovers: 1.6 },
    posted: ['points', 'rebounds', 'pts_rebs', 'blocks', 'pra'],
  },
  {
    position: 'C',
    means: { points: 14 * scale, rebounds: 11, assists: 2, threes: 0.4, steals: 0.7, blocks: 1.8, turnovers: 1.7 },
    posted: ['points', 'rebounds', 'blocks', 'pts_rebs', 'rebs_asts'],
  },
  {
    position: 'G',
    means: { points: 12 * scale, rebounds: 3, assists: 3, threes: 1.9, steals: 0.8, blocks: 0.2, turnovers: 1.2 },
    posted: ['points', 'threes', 'pts_asts'],
  },
];

const football = (nfl: boolean): Slot[] => [
  {
    position: 'QB',
    means: {
      passing_yards: 245,
      passing_tds: 1.7,
      pass_attempts: 34,
      completions: 22,
      interceptions: 0.8,
      rushing_yards: 18,
    },
    posted: nfl
      ? ['passing_yards', 'passing_tds', 'completions', 'pass_attempts', 'interceptions', 'pass_rush_yards']
      : ['passing_yards', 'passing_tds', 'pass_rush_yards'],
  },
  {
    position: 'RB',
    means: { rushing_yards: 68, rush_attempts: 15, receiving_yards: 22, receptions: 2.8 },
    posted: nfl
      ? ['rushing_yards', 'rush_attempts', 'rush_rec_yards', 'receptions']
      : ['rushing_yards', 'rush_rec_yards'],
  },
  {
    position: 'WR',
    means: { receiving_yards: 72, receptions: 5.6, rushing_yards: 2 },
    posted: ['receiving_yards', 'receptions'],
  },
  {
    position: 'WR',
    means: { receiving_yards: 54, receptions: 4.4, rushing_yards: 1 },
    posted: ['receiving_yards', 'receptions'],
  },
  {
    position: 'TE',
    means: { receiving_yards: 44, receptions: 4.1 },
    posted: ['receiving_yards', 'receptions'],
  },
];

export const SIM_SPORTS: readonly SimSport[] = [
  {
    id: 'nba',
    teams: Object.values(NBA_TEAMS),
    spacingMin: 55,
    durationMin: 150,
    periods: 4,
    countdown: true,
    periodMin: 12,
    slots: hoops(1),
    combos: NBA_COMBOS,
  },
  {
    id: 'ncaab',
    teams: NCAAB_TEAMS,
    spacingMin: 70,
    durationMin: 120,
    periods: 2,
    countdown: true,
    periodMin: 20,
    slots: hoops(0.75)
      .slice(0, 4)
      .map((s) => ({
        ...s,
        posted: s.posted.filter((p) => p !== 'blks_stls' && p !== 'blocks' && p !== 'steals' && p !== 'turnovers'),
      })),
    combos: NBA_COMBOS,
  },
  {
    id: 'mlb',
    teams: Object.values(MLB_TEAMS),
    spacingMin: 50,
    durationMin: 180,
    periods: 9,
    countdown: null,
    periodMin: 20,
    slots: [
      {
        position: 'P',
        means: {
          strikeouts: 6.2,
          pitching_outs: 16.5,
          hits_allowed: 5.4,
          walks_allowed: 2.1,
          earned_runs_allowed: 2.6,
          pitches_thrown: 92,
        },
        posted: ['strikeouts', 'pitching_outs', 'hits_allowed', 'earned_runs_allowed', 'pitches_thrown'],
      },
      {
        position: 'CF',
        means: { hits: 1.1, runs: 0.7, rbis: 0.6, total_bases: 1.7, walks: 0.4, hitter_strikeouts: 1.1 },
        posted: ['hits', 'total_bases', 'hits_runs_rbis', 'hitter_strikeouts'],
      },
      {
        position: '1B',
        means: { hits: 1.0, runs: 0.6, rbis: 0.8, total_bases: 1.8, walks: 0.5, hitter_strikeouts: 1.2 },
        posted: ['hits', 'total_bases', 'rbis', 'hits_runs_rbis'],
      },
      {
        position: 'SS',
        means: { hits: 0.9, runs: 0.6, rbis: 0.5, total_bases: 1.4, walks: 0.3, hitter_strikeouts: 0.9 },
        posted: ['hits', 'total_bases', 'runs'],
      },
    ],
    combos: { hits_runs_rbis: ['hits', 'runs', 'rbis'] },
  },
  {
    id: 'nfl',
    teams: Object.values(NFL_TEAMS),
    spacingMin: 110,
    durationMin: 195,
    periods: 4,
    countdown: true,
    periodMin: 15,
    slots: football(true),
    combos: FOOTBALL_COMBOS,
  },
  {
    id: 'ncaaf',
    teams: NCAAF_TEAMS,
    spacingMin: 120,
    durationMin: 210,
    periods: 4,
    countdown: true,
    periodMin: 15,
    slots: football(false).slice(0, 4),
    combos: FOOTBALL_COMBOS,
  },
  {
    id: 'nhl',
    teams: Object.values(NHL_TEAMS),
    spacingMin: 60,
    durationMin: 150,
    periods: 3,
    countdown: true,
    periodMin: 20,
    slots: [
      {
        position: 'C',
        means: { goals: 0.45, assists: 0.6, shots_on_goal: 3.2, hits: 1.1, blocked_shots: 0.5 },
        posted: ['points', 'shots_on_goal', 'goals'],
      },
      {
        position: 'W',
        means: { goals: 0.4, assists: 0.45, shots_on_goal: 2.8, hits: 1.8, blocked_shots: 0.4 },
        posted: ['shots_on_goal', 'points', 'hits'],
      },
      {
        position: 'D',
        means: { goals: 0.1, assists: 0.4, shots_on_goal: 1.9, hits: 1.6, blocked_shots: 1.9 },
        posted: ['blocked_shots', 'shots_on_goal'],
      },
      { position: 'G', means: { saves: 27.5, goals_allowed: 2.9 }, posted: ['saves', 'goals_allowed'] },
    ],
    combos: { points: ['goals', 'assists'] },
  },
  {
    id: 'soccer',
    teams: SOCCER_TEAMS,
    spacingMin: 100,
    durationMin: 115,
    periods: 2,
    countdown: false,
    periodMin: 45,
    slots: [
      {
        position: 'F',
        means: { goals: 0.55, assists: 0.2, shots: 3.4, shots_on_target: 1.5, passes: 24 },
        posted: ['shots', 'shots_on_target', 'goals_assists'],
      },
      {
        position: 'M',
        means: { goals: 0.15, assists: 0.3, shots: 1.6, passes: 58, tackles: 2.1 },
        posted: ['passes', 'tackles', 'shots'],
      },
      {
        position: 'D',
        means: { passes: 52, tackles: 2.4, clearances: 4.2 },
        posted: ['clearances', 'tackles', 'passes'],
      },
      { position: 'GK', means: { saves: 3.1, passes: 30 }, posted: ['saves'] },
    ],
    combos: { goals_assists: ['goals', 'assists'] },
  },
  {
    id: 'lol',
    teams: LOL_TEAMS,
    spacingMin: 75,
    durationMin: 80,
    periods: 2,
    countdown: false,
    periodMin: 35,
    slots: ['TOP', 'JNG', 'MID', 'BOT', 'SUP'].map((position, i) => ({
      position,
      means: {
        kills_g1: [2.6, 2.9, 3.8, 4.6, 0.8][i] as number,
        kills_g2: [2.6, 2.9, 3.8, 4.6, 0.8][i] as number,
        assists_g12: [9, 13, 11, 10, 17][i] as number,
        deaths_g12: [4.8, 4.6, 4.2, 4.0, 5.6][i] as number,
      },
      posted:
        i === 4
          ? ['assists_on_games_1_2', 'deaths_on_games_1_2']
          : ['kills_on_game_1', 'kills_on_games_1_2', 'assists_on_games_1_2'],
    })),
    combos: {
      kills_on_game_1: ['kills_g1'],
      kills_on_games_1_2: ['kills_g1', 'kills_g2'],
      assists_on_games_1_2: ['assists_g12'],
      deaths_on_games_1_2: ['deaths_g12'],
    },
  },
  // Last, so adding it left the other sports' schedules and player ids as they were.
  {
    id: 'wnba',
    teams: Object.values(WNBA_TEAMS),
    spacingMin: 150,
    durationMin: 130,
    periods: 4,
    countdown: true,
    periodMin: 10,
    slots: hoops(0.8),
    combos: NBA_COMBOS,
  },
];
