/**
 * Book stat names → the catalog's stat keys. Both books' names reduce to one spelling
 * (lower case, runs of other characters → "_": "Pts+Rebs+Asts" and "pts_rebs_asts" are both
 * `pts_rebs_asts`), so one table per sport serves both. A name not listed is unmapped.
 */
import { type SportId, STAT_KEYS, UNSUPPORTED_STATS } from '@propsfeed/contract';

/** Extra spellings per stat key; every key also matches itself. */
const BASKETBALL = {
  threes: ['3_pt_made', 'three_points_made', '3_pointers_made'],
  pra: ['pts_rebs_asts'],
  blocks: ['blocked_shots'],
  blks_stls: ['blocks_steals', 'stls_blks'],
  fantasy_points: ['fantasy_score'],
};

const SYNONYMS: Record<SportId, Record<string, readonly string[]>> = {
  nba: BASKETBALL,
  wnba: BASKETBALL,
  ncaab: { threes: ['3_pt_made', 'three_points_made', '3_pointers_made'], pra: ['pts_rebs_asts'] },
  mlb: {
    strikeouts: ['pitcher_strikeouts'],
    walks: ['batter_walks'],
    hitter_fantasy_points: ['hitter_fantasy_score'],
    pitcher_fantasy_points: ['pitcher_fantasy_score'],
    pitches_thrown: ['pitch_count'],
  },
  nfl: {
    passing_yards: ['pass_yards'],
    passing_tds: ['pass_tds', 'passing_touchdowns'],
    pass_attempts: ['passing_attempts'],
    completions: ['pass_completions', 'passing_completions'],
    interceptions: ['int', 'pass_ints', 'passing_interceptions'],
    rushing_yards: ['rush_yards'],
    rush_attempts: ['rushing_attempts'],
    rush_rec_yards: ['rush_rec_yds', 'rushing_and_receiving_yards'],
    pass_rush_yards: ['pass_rush_yds', 'passing_and_rushing_yards'],
    fantasy_points: ['fantasy_score'],
    tackles_assists: ['tackles_ast'],
    field_goals_made: ['fg_made'],
    targets: ['rec_targets', 'receiving_targets'],
  },
  ncaaf: {
    passing_yards: ['pass_yards'],
    passing_tds: ['pass_tds', 'passing_touchdowns'],
    rushing_yards: ['rush_yards'],
    rush_rec_yards: ['rush_rec_yds', 'rushing_and_receiving_yards'],
    pass_rush_yards: ['pass_rush_yds', 'passing_and_rushing_yards'],
    fantasy_points: ['fantasy_score'],
  },
  nhl: { shots_on_goal: ['sog', 'shots'], saves: ['goalie_saves'] },
  soccer: {
    shots: ['shots_attempted'],
    passes: ['passes_attempted'],
    saves: ['goalie_saves'],
    goals_assists: ['goal_assist', 'goals_and_assists'],
  },
  lol: {
    kills_on_game_1: ['map_1_kills', 'game_1_kills'],
    kills_on_games_1_2: ['maps_1_2_kills', 'game_1_and_2_kills', 'map_1_and_2_kills'],
    assists_on_games_1_2: ['maps_1_2_assists', 'game_1_and_2_assists', 'map_1_and_2_assists'],
    deaths_on_games_1_2: ['maps_1_2_deaths', 'game_1_and_2_deaths', 'map_1_and_2_deaths'],
  },
};

export function statSpelling(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

const LOOKUP = new Map<SportId, Map<string, string>>();
for (const sport of Object.keys(STAT_KEYS) as SportId[]) {
  const table = new Map<string, string>();
  for (const key of STAT_KEYS[sport]) table.set(key, key);
  for (const [key, names] of Object.entries(SYNONYMS[sport])) for (const n of names) table.set(n, key);
  LOOKUP.set(sport, table);
}

/** The stat key of a book's stat name in `sport`, or undefined when it has none. */
export function statKey(sport: SportId, bookStat: string): string | undefined {
  return LOOKUP.get(sport)?.get(spelledOnce(bookStat));
}

/** Counts a book stat with no key as unmapped (`sport:name`), unless the catalog leaves it out on purpose. */
export function countUnmapped(counts: Record<string, number>, sport: SportId, bookStat: string): void {
  if (UNSUPPORTED_STATS[sport]?.[spelledOnce(bookStat)] !== undefined) return;
  const key = `${sport}:${bookStat}`;
  counts[key] = (counts[key] ?? 0) + 1;
}

// Books repeat a few dozen stat names thousands of times per poll: spell each once.
const SPELLED = new Map<string, string>();

function spelledOnce(bookStat: string): string {
  let spelled = SPELLED.get(bookStat);
  if (spelled === undefined) {
    if (SPELLED.size >= 10_000) SPELLED.clear();
    spelled = statSpelling(bookStat);
    SPELLED.set(bookStat, spelled);
  }
  return spelled;
}

/** "(Combo)" stats combine players; they are skipped, not counted as unmapped. */
export function isComboStat(bookStat: string): boolean {
  return /\(combo\)/i.test(bookStat);
}
