/**
 * Team names of the five US leagues: abbreviation → full name, so both books' teams read the
 * same ("BOS" and "Boston Celtics" are one team), and a full name → its abbreviation, so a
 * narrow table or a watch line can say "NYK @ ORL". Other sports carry full names only.
 */
import type { SportId } from './catalog';

export const NBA_TEAMS: Record<string, string> = {
  ATL: 'Atlanta Hawks',
  BOS: 'Boston Celtics',
  BKN: 'Brooklyn Nets',
  CHA: 'Charlotte Hornets',
  CHI: 'Chicago Bulls',
  CLE: 'Cleveland Cavaliers',
  DAL: 'Dallas Mavericks',
  DEN: 'Denver Nuggets',
  DET: 'Detroit Pistons',
  GSW: 'Golden State Warriors',
  HOU: 'Houston Rockets',
  IND: 'Indiana Pacers',
  LAC: 'Los Angeles Clippers',
  LAL: 'Los Angeles Lakers',
  MEM: 'Memphis Grizzlies',
  MIA: 'Miami Heat',
  MIL: 'Milwaukee Bucks',
  MIN: 'Minnesota Timberwolves',
  NOP: 'New Orleans Pelicans',
  NYK: 'New York Knicks',
  OKC: 'Oklahoma City Thunder',
  ORL: 'Orlando Magic',
  PHI: 'Philadelphia 76ers',
  PHX: 'Phoenix Suns',
  POR: 'Portland Trail Blazers',
  SAC: 'Sacramento Kings',
  SAS: 'San Antonio Spurs',
  TOR: 'Toronto Raptors',
  UTA: 'Utah Jazz',
  WAS: 'Washington Wizards',
};

/** The 13 franchises of 2025, under the abbreviations both books write (LVA, LAS, PHO, CON, WAS). */
export const WNBA_TEAMS: Record<string, string> = {
  ATL: 'Atlanta Dream',
  CHI: 'Chicago Sky',
  CON: 'Connecticut Sun',
  DAL: 'Dallas Wings',
  GSV: 'Golden State Valkyries',
  IND: 'Indiana Fever',
  LAS: 'Los Angeles Sparks',
  LVA: 'Las Vegas Aces',
  MIN: 'Minnesota Lynx',
  NYL: 'New York Liberty',
  PHO: 'Phoenix Mercury',
  SEA: 'Seattle Storm',
  WAS: 'Washington Mystics',
};

export const MLB_TEAMS: Record<string, string> = {
  ARI: 'Arizona Diamondbacks',
  ATL: 'Atlanta Braves',
  BAL: 'Baltimore Orioles',
  BOS: 'Boston Red Sox',
  CHC: 'Chicago Cubs',
  CWS: 'Chicago White Sox',
  CIN: 'Cincinnati Reds',
  CLE: 'Cleveland Guardians',
  COL: 'Colorado Rockies',
  DET: 'Detroit Tigers',
  HOU: 'Houston Astros',
  KC: 'Kansas City Royals',
  LAA: 'Los Angeles Angels',
  LAD: 'Los Angeles Dodgers',
  MIA: 'Miami Marlins',
  MIL: 'Milwaukee Brewers',
  MIN: 'Minnesota Twins',
  NYM: 'New York Mets',
  NYY: 'New York Yankees',
  OAK: 'Oakland Athletics',
  PHI: 'Philadelphia Phillies',
  PIT: 'Pittsburgh Pirates',
  SD: 'San Diego Padres',
  SF: 'San Francisco Giants',
  SEA: 'Seattle Mariners',
  STL: 'St. Louis Cardinals',
  TB: 'Tampa Bay Rays',
  TEX: 'Texas Rangers',
  TOR: 'Toronto Blue Jays',
  WSH: 'Washington Nationals',
};

export const NFL_TEAMS: Record<string, string> = {
  ARI: 'Arizona Cardinals',
  ATL: 'Atlanta Falcons',
  BAL: 'Baltimore Ravens',
  BUF: 'Buffalo Bills',
  CAR: 'Carolina Panthers',
  CHI: 'Chicago Bears',
  CIN: 'Cincinnati Bengals',
  CLE: 'Cleveland Browns',
  DAL: 'Dallas Cowboys',
  DEN: 'Denver Broncos',
  DET: 'Detroit Lions',
  GB: 'Green Bay Packers',
  HOU: 'Houston Texans',
  IND: 'Indianapolis Colts',
  JAX: 'Jacksonville Jaguars',
  KC: 'Kansas City Chiefs',
  LV: 'Las Vegas Raiders',
  LAC: 'Los Angeles Chargers',
  LAR: 'Los Angeles Rams',
  MIA: 'Miami Dolphins',
  MIN: 'Minnesota Vikings',
  NE: 'New England Patriots',
  NO: 'New Orleans Saints',
  NYG: 'New York Giants',
  NYJ: 'New York Jets',
  PHI: 'Philadelphia Eagles',
  PIT: 'Pittsburgh Steelers',
  SF: 'San Francisco 49ers',
  SEA: 'Seattle Seahawks',
  TB: 'Tampa Bay Buccaneers',
  TEN: 'Tennessee Titans',
  WAS: 'Washington Commanders',
};

export const NHL_TEAMS: Record<string, string> = {
  ANA: 'Anaheim Ducks',
  BOS: 'Boston Bruins',
  BUF: 'Buffalo Sabres',
  CGY: 'Calgary Flames',
  CAR: 'Carolina Hurricanes',
  CHI: 'Chicago Blackhawks',
  COL: 'Colorado Avalanche',
  CBJ: 'Columbus Blue Jackets',
  DAL: 'Dallas Stars',
  DET: 'Detroit Red Wings',
  EDM: 'Edmonton Oilers',
  FLA: 'Florida Panthers',
  LAK: 'Los Angeles Kings',
  MIN: 'Minnesota Wild',
  MTL: 'Montreal Canadiens',
  NSH: 'Nashville Predators',
  NJD: 'New Jersey Devils',
  NYI: 'New York Islanders',
  NYR: 'New York Rangers',
  OTT: 'Ottawa Senators',
  PHI: 'Philadelphia Flyers',
  PIT: 'Pittsburgh Penguins',
  SJS: 'San Jose Sharks',
  SEA: 'Seattle Kraken',
  STL: 'St. Louis Blues',
  TBL: 'Tampa Bay Lightning',
  TOR: 'Toronto Maple Leafs',
  UTA: 'Utah Hockey Club',
  VAN: 'Vancouver Canucks',
  VGK: 'Vegas Golden Knights',
  WSH: 'Washington Capitals',
  WPG: 'Winnipeg Jets',
};

/** Other spellings the books use for the same team. */
const ALIASES: Partial<Record<SportId, Record<string, string>>> = {
  nba: { BRK: 'BKN', GS: 'GSW', NO: 'NOP', NY: 'NYK', PHO: 'PHX', SA: 'SAS', UTAH: 'UTA', WSH: 'WAS' },
  wnba: { CONN: 'CON', GS: 'GSV', LA: 'LAS', LV: 'LVA', NY: 'NYL', PHX: 'PHO', WSH: 'WAS' },
  mlb: { AZ: 'ARI', CHW: 'CWS', KCR: 'KC', SDP: 'SD', SFG: 'SF', TBR: 'TB', WAS: 'WSH', ATH: 'OAK' },
  nfl: { LA: 'LAR', 'LA-R': 'LAR', 'LA-C': 'LAC', JAC: 'JAX', WSH: 'WAS', LVR: 'LV' },
  nhl: { LA: 'LAK', NJ: 'NJD', SJ: 'SJS', TB: 'TBL', VEG: 'VGK', WAS: 'WSH', MON: 'MTL', UTAH: 'UTA' },
};

const BY_SPORT: Partial<Record<SportId, Record<string, string>>> = {
  nba: NBA_TEAMS,
  wnba: WNBA_TEAMS,
  mlb: MLB_TEAMS,
  nfl: NFL_TEAMS,
  nhl: NHL_TEAMS,
};

/** The full team name of an abbreviation in the five US leagues; other values pass through. */
export function teamName(sport: SportId, team: string): string {
  const table = BY_SPORT[sport];
  if (!table) return team.trim();
  const abbr = team.trim().toUpperCase();
  return table[abbr] ?? table[ALIASES[sport]?.[abbr] ?? ''] ?? team.trim();
}

/** The abbreviation of a full team name in the five US leagues (the simulator posts these); undefined elsewhere. */
export function teamAbbreviation(sport: SportId, name: string): string | undefined {
  return ABBREVIATION_OF.get(sport)?.get(name);
}

const ABBREVIATION_OF = new Map(
  Object.entries(BY_SPORT).map(([sport, table]) => [
    sport as SportId,
    new Map(Object.entries(table).map(([abbr, full]) => [full, abbr])),
  ]),
);

/** A team as a narrow column shows it: its abbreviation where the league has one, else its name. */
export function shortTeamName(sport: SportId, name: string): string {
  return teamAbbreviation(sport, name) ?? name;
}
