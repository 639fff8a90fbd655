/**
 * What the simulator plays per sport: its leagues' weekly rhythm in local time (calendar.ts),
 * how long before the start lines go up, roster slots with stable means per base stat, the
 * stat keys posted per slot (combos are sums of base stats; a component listed three times
 * counts three times) and the spread of each stat (variance = mean + dispersion × mean²).
 */
import { isStatKey, MLB_TEAMS, NBA_TEAMS, NFL_TEAMS, NHL_TEAMS, type SportId, WNBA_TEAMS } from '@propsfeed/contract';
import { at, EVERY_DAY, type League, onDays, weekOf } from './calendar';
import { NAME_POOLS, type NamePool } from './names';
import { LOL_TEAMS, NCAAB_TEAMS, NCAAF_TEAMS, SOCCER_TEAMS } from './teams';

export interface Slot {
  position: string;
  /** Mean per game of each base stat. */
  means: Record<string, number>;
  /** Stat keys posted for this slot: base stats or combos. */
  posted: readonly string[];
}

export interface SimSport {
  id: SportId;
  /** Every team of the sport's leagues (a team's index here is part of its players' ids). */
  teams: readonly string[];
  leagues: readonly League[];
  /** Lines go up this long before the start. */
  openBeforeMin: number;
  durationMin: number;
  periods: number;
  /** True when the clock counts down within a period; null: the sport has no clock (baseball). */
  countdown: boolean | null;
  periodMin: number;
  slots: readonly Slot[];
  combos: Record<string, readonly string[]>;
  /** variance = mean + dispersion × mean² per base stat (default DISPERSION). */
  dispersion?: Record<string, number>;
  names: NamePool | 'handles';
}

export const DISPERSION = 0.04;
const HOUR = 60;
/** Local times, minutes east of UTC. */
const ET = -5 * HOUR;
const PT = -8 * HOUR;
const UK = 0;
const CET = HOUR;
const CHINA = 8 * HOUR;
const KOREA = 9 * HOUR;
const [SUN, MON, TUE, WED, THU, FRI, SAT] = [0, 1, 2, 3, 4, 5, 6];
const WEEKDAYS = [MON, TUE, WED, THU, FRI];
const WEEKEND = [SAT, SUN];
/**
 * How long before the start a game's lines may go up: a period (a day, a week) less the
 * game's length plus six hours, so tomorrow's 7 pm lines go up during tonight's games and
 * next Sunday's during this Sunday's. The world holds a game back until both teams' previous
 * games have left the board, so a team is never listed twice.
 */
const openAfterPeriod = (periodMin: number, durationMin: number) => periodMin - durationMin + 6 * HOUR;
const DAY_MIN = 24 * HOUR;

const NBA_COMBOS = {
  pra: ['points', 'rebounds', 'assists'],
  pts_rebs: ['points', 'rebounds'],
  pts_asts: ['points', 'assists'],
  rebs_asts: ['rebounds', 'assists'],
  blks_stls: ['blocks', 'steals'],
};

/** A basketball rotation: five starters, then the bench; `scale` sets the scoring level. */
const hoops = (
  sport: SportId,
  scale: number,
  starterStats: readonly string[],
  benchStats: readonly string[],
): Slot[] => {
  const slot = (position: string, means: Record<string, number>, posted: readonly string[]): Slot => ({
    position,
    means: { ...means, points: (means.points as number) * scale },
    posted,
  });
  const base = { steals: 0.8, blocks: 0.4, turnovers: 1.5 };
  return [
    slot('PG', { ...base, points: 22, rebounds: 4.5, assists: 7.5, threes: 2.6, steals: 1.3, turnovers: 3 }, [
      ...starterStats,
      'turnovers',
    ]),
    slot('SG', { ...base, points: 19, rebounds: 4, assists: 4, threes: 2.8, steals: 1.1 }, [...starterStats, 'steals']),
    slot('SF', { ...base, points: 17, rebounds: 6, assists: 3.5, threes: 2, blocks: 0.7 }, [
      ...starterStats,
      'blks_stls',
    ]),
    slot('PF', { ...base, points: 15, rebounds: 8, assists: 2.5, threes: 1.2, blocks: 1.1 }, [
      ...starterStats,
      'rebs_asts',
    ]),
    slot('C', { ...base, points: 14, rebounds: 10.5, assists: 2.2, threes: 0.5, blocks: 1.8 }, [
      ...starterStats.filter((s) => s !== 'threes'),
      'blocks',
      'blks_stls',
    ]),
    slot('G', { ...base, points: 12, rebounds: 3, assists: 3, threes: 1.9 }, benchStats),
    slot('F', { ...base, points: 9, rebounds: 5, assists: 1.5, threes: 1.1 }, benchStats.slice(0, -1)),
    slot('C', { ...base, points: 7, rebounds: 6, assists: 1, threes: 0.2, blocks: 1 }, ['points', 'rebounds']),
  ].map((s) => ({ ...s, posted: s.posted.filter((p) => isStatKey(sport, p)) }));
};

const NBA_STARTER_STATS = ['points', 'rebounds', 'assists', 'threes', 'pra', 'pts_rebs', 'pts_asts'];

const FOOTBALL_COMBOS = {
  rush_rec_yards: ['rushing_yards', 'receiving_yards'],
  pass_rush_yards: ['passing_yards', 'rushing_yards'],
  rush_rec_tds: ['rushing_tds', 'receiving_tds'],
  kicking_points: ['field_goals_made', 'field_goals_made', 'field_goals_made', 'extra_points'],
};
/** Yardage varies far more than a count: a 70-yard mean has a spread near 27. */
const FOOTBALL_DISPERSION = { passing_yards: 0.06, rushing_yards: 0.15, receiving_yards: 0.15 };

const football = (nfl: boolean): Slot[] => {
  const only = (posted: string[], college: string[]) => (nfl ? posted : college);
  return [
    {
      position: 'QB',
      means: {
        passing_yards: 235,
        passing_tds: 1.6,
        pass_attempts: 33,
        completions: 22,
        interceptions: 0.8,
        rushing_yards: 16,
      },
      posted: only(
        ['passing_yards', 'passing_tds', 'completions', 'pass_attempts', 'interceptions', 'pass_rush_yards'],
        ['passing_yards', 'passing_tds', 'pass_rush_yards', 'rushing_yards'],
      ),
    },
    {
      position: 'RB',
      means: { rushing_yards: 66, rush_attempts: 15, receiving_yards: 20, receptions: 2.7, rushing_tds: 0.5 },
      posted: only(
        ['rushing_yards', 'rush_attempts', 'rush_rec_yards', 'receptions', 'rush_rec_tds'],
        ['rushing_yards', 'rush_rec_yards', 'receptions'],
      ),
    },
    {
      position: 'RB',
      means: { rushing_yards: 34, rush_attempts: 8, receiving_yards: 12, receptions: 1.6 },
      posted: only(['rushing_yards', 'rush_attempts', 'rush_rec_yards'], ['rushing_yards']),
    },
    {
      position: 'WR',
      means: { receiving_yards: 72, receptions: 5.6, receiving_tds: 0.5 },
      posted: only(['receiving_yards', 'receptions', 'rush_rec_tds'], ['receiving_yards', 'receptions']),
    },
    {
      position: 'WR',
      means: { receiving_yards: 54, receptions: 4.4, receiving_tds: 0.35 },
      posted: ['receiving_yards', 'receptions'],
    },
    {
      position: 'WR',
      means: { receiving_yards: 36, receptions: 3 },
      posted: only(['receiving_yards', 'receptions'], ['receiving_yards']),
    },
    { position: 'TE', means: { receiving_yards: 42, receptions: 4 }, posted: ['receiving_yards', 'receptions'] },
    ...(nfl
      ? [
          {
            position: 'K',
            means: { field_goals_made: 1.7, extra_points: 2.4 },
            posted: ['field_goals_made', 'kicking_points'],
          },
          { position: 'LB', means: { tackles_assists: 7.5, sacks: 0.3 }, posted: ['tackles_assists'] },
          { position: 'DE', means: { tackles_assists: 4, sacks: 0.7 }, posted: ['sacks', 'tackles_assists'] },
        ]
      : []),
  ];
};

const hockeySkater = (position: string, goals: number, assists: number, sog: number, hits: number, blocks: number) => ({
  position,
  means: { goals, assists, shots_on_goal: sog, hits, blocked_shots: blocks },
});

/** ESPN-style US evenings: most games at 7–8 pm Eastern, the West Coast at 10 pm. */
const usEvening = (early: number, late: number) => [
  at('19:00', early, early + 1),
  at('19:30', 1, 2),
  at('20:00', 1, 2),
  at('21:00', 0, 1),
  at('22:00', late, late + 1),
  at('22:30', 0, 1),
];

const LOL_REGIONS: { teams: string[]; utcOffsetMin: number; days: number[]; times: string[] }[] = [
  // LCK in Seoul, LPL in Shanghai: Asian evenings.
  { teams: LOL_TEAMS.slice(0, 5), utcOffsetMin: KOREA, days: [WED, THU, FRI, SAT, SUN], times: ['17:00', '19:30'] },
  { teams: LOL_TEAMS.slice(13, 16), utcOffsetMin: CHINA, days: [0, 1, 2, 3, 4, 5, 6], times: ['17:00'] },
  // LEC in Berlin, LCS in Los Angeles.
  { teams: LOL_TEAMS.slice(5, 9), utcOffsetMin: CET, days: [SAT, SUN, MON], times: ['18:00', '19:00'] },
  { teams: LOL_TEAMS.slice(9, 13), utcOffsetMin: PT, days: [SAT, SUN], times: ['14:00', '16:00'] },
];

export const SIM_SPORTS: readonly SimSport[] = [
  {
    id: 'nba',
    teams: Object.values(NBA_TEAMS),
    // 5–12 games an evening, an afternoon game on weekends.
    leagues: [
      {
        teams: Object.values(NBA_TEAMS),
        utcOffsetMin: ET,
        period: 'day',
        week: weekOf(EVERY_DAY(usEvening(2, 1)), onDays(WEEKEND, [at('15:30', 0, 1)])),
      },
    ],
    openBeforeMin: openAfterPeriod(DAY_MIN, 150),
    durationMin: 150,
    periods: 4,
    countdown: true,
    periodMin: 12,
    slots: hoops('nba', 1, NBA_STARTER_STATS, ['points', 'rebounds', 'assists', 'pra']),
    combos: NBA_COMBOS,
    names: NAME_POOLS.basketball,
  },
  {
    id: 'ncaab',
    teams: NCAAB_TEAMS,
    leagues: [
      {
        teams: NCAAB_TEAMS,
        utcOffsetMin: ET,
        period: 'day',
        week: weekOf(
          onDays(WEEKDAYS, [at('18:30', 3, 5), at('19:00', 4, 6), at('20:00', 3, 5), at('21:00', 2, 4)]),
          onDays(
            [SAT],
            [at('12:00', 3, 4), at('14:00', 3, 4), at('16:00', 3, 4), at('18:00', 3, 4), at('20:00', 3, 4)],
          ),
          onDays(
            [SUN],
            [at('14:00', 3, 4), at('16:00', 3, 4), at('18:00', 3, 4), at('19:30', 2, 3), at('20:30', 2, 3)],
          ),
        ),
      },
    ],
    openBeforeMin: openAfterPeriod(DAY_MIN, 120),
    durationMin: 120,
    periods: 2,
    countdown: true,
    periodMin: 20,
    slots: hoops('ncaab', 0.8, NBA_STARTER_STATS, ['points', 'rebounds', 'threes']).slice(0, 7),
    combos: NBA_COMBOS,
    names: NAME_POOLS.basketball,
  },
  {
    id: 'mlb',
    teams: Object.values(MLB_TEAMS),
    // Day games at 1 pm and 4 pm, the night games from 6:40 pm to the West Coast's 10:10 pm.
    leagues: [
      {
        teams: Object.values(MLB_TEAMS),
        utcOffsetMin: ET,
        period: 'day',
        week: weekOf(
          onDays(WEEKDAYS, [at('13:05', 0, 2), at('16:05', 0, 1), at('18:40', 1, 2), at('19:05', 2, 3)]),
          onDays(WEEKEND, [at('13:05', 2, 3), at('13:35', 1, 2), at('16:05', 1, 2), at('19:05', 1, 2)]),
          EVERY_DAY([at('19:10', 1, 2), at('19:40', 0, 1), at('20:10', 1, 2), at('21:40', 1, 2), at('22:10', 1, 1)]),
        ),
      },
    ],
    openBeforeMin: openAfterPeriod(DAY_MIN, 180),
    durationMin: 180,
    periods: 9,
    countdown: null,
    periodMin: 20,
    slots: [
      {
        position: 'SP',
        means: {
          strikeouts: 6,
          pitching_outs: 16.5,
          hits_allowed: 5.4,
          walks_allowed: 2.1,
          earned_runs_allowed: 2.6,
          pitches_thrown: 92,
        },
        posted: [
          'strikeouts',
          'pitching_outs',
          'hits_allowed',
          'earned_runs_allowed',
          'walks_allowed',
          'pitches_thrown',
        ],
      },
      ...[1.15, 1.1, 1.05, 1, 0.95, 0.9, 0.85, 0.8, 0.75].map((f, i) => ({
        position: ['CF', 'SS', '1B', 'RF', '3B', 'LF', 'DH', '2B', 'C'][i] as string,
        means: {
          hits: 1 * f,
          singles: 0.65 * f,
          runs: 0.6 * f,
          rbis: 0.6 * f,
          total_bases: 1.6 * f,
          walks: 0.4 * f,
          hitter_strikeouts: 1,
        },
        posted:
          i < 5
            ? ['hits', 'total_bases', 'hits_runs_rbis', 'hitter_strikeouts', 'runs', 'rbis']
            : ['hits', 'total_bases', 'hits_runs_rbis', 'singles'],
      })),
    ],
    combos: { hits_runs_rbis: ['hits', 'runs', 'rbis'] },
    dispersion: { pitches_thrown: 0.015 },
    names: NAME_POOLS.baseball,
  },
  {
    id: 'nfl',
    teams: Object.values(NFL_TEAMS),
    // Each team once a week: Thursday night, Sunday's three windows and night game, Monday night.
    leagues: [
      {
        teams: Object.values(NFL_TEAMS),
        utcOffsetMin: ET,
        period: 'week',
        week: weekOf(
          onDays([THU], [at('20:15', 1)]),
          onDays([SUN], [at('13:00', 7, 9), at('16:05', 1, 2), at('16:25', 2, 3), at('20:20', 1)]),
          onDays([MON], [at('20:15', 1, 2)]),
        ),
      },
    ],
    // Next Sunday's lines go up once this Sunday's games are over, so the board always has the next games.
    openBeforeMin: openAfterPeriod(7 * DAY_MIN, 195),
    durationMin: 195,
    periods: 4,
    countdown: true,
    periodMin: 15,
    slots: football(true),
    combos: FOOTBALL_COMBOS,
    dispersion: FOOTBALL_DISPERSION,
    names: NAME_POOLS.football,
  },
  {
    id: 'ncaaf',
    teams: NCAAF_TEAMS,
    leagues: [
      {
        teams: NCAAF_TEAMS,
        utcOffsetMin: ET,
        period: 'week',
        week: weekOf(
          onDays([THU], [at('19:30', 0, 1)]),
          onDays([FRI], [at('20:00', 0, 1)]),
          onDays([SAT], [at('12:00', 2, 3), at('15:30', 2, 3), at('19:30', 2, 3), at('22:30', 0, 1)]),
        ),
      },
    ],
    // Saturday's games are posted early in the week.
    openBeforeMin: openAfterPeriod(7 * DAY_MIN, 210),
    durationMin: 210,
    periods: 4,
    countdown: true,
    periodMin: 15,
    slots: football(false),
    combos: FOOTBALL_COMBOS,
    dispersion: FOOTBALL_DISPERSION,
    names: NAME_POOLS.football,
  },
  {
    id: 'nhl',
    teams: Object.values(NHL_TEAMS),
    leagues: [
      {
        teams: Object.values(NHL_TEAMS),
        utcOffsetMin: ET,
        period: 'day',
        week: weekOf(EVERY_DAY(usEvening(2, 1)), onDays(WEEKEND, [at('13:00', 0, 1), at('15:30', 0, 1)])),
      },
    ],
    openBeforeMin: openAfterPeriod(DAY_MIN, 150),
    durationMin: 150,
    periods: 3,
    countdown: true,
    periodMin: 20,
    slots: [
      { ...hockeySkater('C', 0.45, 0.65, 3.2, 1, 0.5), posted: ['points', 'shots_on_goal', 'goals', 'assists'] },
      { ...hockeySkater('C', 0.3, 0.45, 2.4, 1.2, 0.6), posted: ['points', 'shots_on_goal'] },
      { ...hockeySkater('W', 0.4, 0.45, 2.9, 1.8, 0.4), posted: ['shots_on_goal', 'points', 'goals', 'hits'] },
      { ...hockeySkater('W', 0.3, 0.35, 2.3, 2.2, 0.4), posted: ['shots_on_goal', 'points', 'hits'] },
      { ...hockeySkater('W', 0.2, 0.25, 1.8, 2.5, 0.5), posted: ['shots_on_goal', 'hits'] },
      { ...hockeySkater('D', 0.1, 0.45, 2.1, 1.6, 1.9), posted: ['blocked_shots', 'shots_on_goal', 'points'] },
      { ...hockeySkater('D', 0.05, 0.25, 1.4, 2.1, 2.2), posted: ['blocked_shots', 'hits'] },
      { position: 'G', means: { saves: 27.5, goals_allowed: 2.9 }, posted: ['saves', 'goals_allowed'] },
    ],
    combos: { points: ['goals', 'assists'] },
    names: NAME_POOLS.hockey,
  },
  {
    id: 'soccer',
    teams: SOCCER_TEAMS,
    // England, Spain, Italy, Germany and France: weekend afternoons and evenings, European nights midweek.
    leagues: [
      {
        teams: SOCCER_TEAMS.slice(0, 10),
        utcOffsetMin: UK,
        period: 'day',
        week: weekOf(
          onDays([SAT], [at('12:30', 1), at('15:00', 2, 3), at('17:30', 1)]),
          onDays([SUN], [at('14:00', 1, 2), at('16:30', 1)]),
          onDays([TUE, WED], [at('19:45', 1, 2)]),
          onDays([MON, THU, FRI], [at('20:00', 1)]),
        ),
      },
      {
        teams: SOCCER_TEAMS.slice(10, 16),
        utcOffsetMin: CET,
        period: 'day',
        week: weekOf(
          onDays(WEEKEND, [at('14:00', 0, 1), at('18:30', 1), at('21:00', 1)]),
          onDays([MON, TUE, WED, THU, FRI], [at('21:00', 1)]),
        ),
      },
      {
        teams: SOCCER_TEAMS.slice(16, 20),
        utcOffsetMin: CET,
        period: 'day',
        week: weekOf(onDays(WEEKEND, [at('15:00', 0, 1), at('20:45', 1)]), onDays([TUE, WED, FRI], [at('20:45', 1)])),
      },
      // Germany and France: Friday nights, Saturday 15:30, Sunday evenings, European nights.
      {
        teams: SOCCER_TEAMS.slice(20),
        utcOffsetMin: CET,
        period: 'day',
        week: weekOf(
          onDays([FRI], [at('20:30', 1)]),
          onDays([SAT], [at('15:30', 1, 2), at('21:00', 0, 1)]),
          onDays([SUN], [at('17:30', 1), at('20:45', 1)]),
          onDays([TUE, WED, THU], [at('21:00', 1, 2)]),
        ),
      },
    ],
    openBeforeMin: openAfterPeriod(2 * DAY_MIN, 115),
    durationMin: 115,
    periods: 2,
    countdown: false,
    periodMin: 45,
    slots: [
      {
        position: 'F',
        means: { goals: 0.5, assists: 0.2, shots: 3.2, shots_on_target: 1.4, passes: 24 },
        posted: ['shots', 'shots_on_target', 'goals_assists'],
      },
      {
        position: 'F',
        means: { goals: 0.35, assists: 0.25, shots: 2.4, shots_on_target: 1, passes: 28 },
        posted: ['shots', 'shots_on_target'],
      },
      {
        position: 'M',
        means: { goals: 0.15, assists: 0.3, shots: 1.6, passes: 58, tackles: 2.1 },
        posted: ['passes', 'shots'],
      },
      {
        position: 'M',
        means: { goals: 0.1, assists: 0.2, shots: 1.1, passes: 48, tackles: 2.6 },
        posted: ['passes', 'tackles'],
      },
      {
        position: 'D',
        means: { passes: 52, tackles: 2.4, clearances: 4.2 },
        posted: ['clearances', 'tackles', 'passes'],
      },
      { position: 'D', means: { passes: 44, tackles: 1.9, clearances: 3.4 }, posted: ['clearances', 'passes'] },
      { position: 'GK', means: { saves: 3.1, passes: 30 }, posted: ['saves'] },
    ],
    combos: { goals_assists: ['goals', 'assists'] },
    names: NAME_POOLS.soccer,
  },
  {
    id: 'lol',
    teams: LOL_TEAMS,
    leagues: LOL_REGIONS.map((r) => ({
      teams: r.teams,
      utcOffsetMin: r.utcOffsetMin,
      period: 'day' as const,
      week: onDays(
        r.days,
        r.times.map((t) => at(t, 1)),
      ),
    })),
    openBeforeMin: openAfterPeriod(2 * DAY_MIN, 110),
    durationMin: 110,
    periods: 2,
    countdown: false,
    periodMin: 40,
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
    names: 'handles',
  },
  // Last, so adding it left the other sports' game and player ids as they were.
  {
    id: 'wnba',
    teams: Object.values(WNBA_TEAMS),
    // Two to six games an evening (13 teams), weekend afternoons.
    leagues: [
      {
        teams: Object.values(WNBA_TEAMS),
        utcOffsetMin: ET,
        period: 'day',
        week: weekOf(
          EVERY_DAY([at('19:00', 1, 2), at('19:30', 0, 1), at('20:00', 0, 1), at('22:00', 1, 2)]),
          onDays(WEEKEND, [at('13:00', 0, 1), at('15:00', 0, 1)]),
        ),
      },
    ],
    openBeforeMin: openAfterPeriod(DAY_MIN, 130),
    durationMin: 130,
    periods: 4,
    countdown: true,
    periodMin: 10,
    slots: hoops('wnba', 0.8, NBA_STARTER_STATS, ['points', 'rebounds', 'assists', 'pra']),
    combos: NBA_COMBOS,
    names: NAME_POOLS.womensBasketball,
  },
];
