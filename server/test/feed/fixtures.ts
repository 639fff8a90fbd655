/**
 * Book payloads written for these tests in the books' real wire shapes (see
 * ../shared/books/SOURCES.md for the recorded originals): one NBA game posted by both books,
 * one MLB game from an older-format PrizePicks payload, and the mess the books send.
 */

/** A JSON payload as a book sends it. */
export type Payload = Record<string, unknown>;

export const PP_BASE = 'http://prizepicks.test';
export const UD_BASE = 'http://underdog.test';

export const league = (id: string) => ({ data: { type: 'league', id } });
export const player = (id: string) => ({ data: { type: 'new_player', id } });

export function projection(id: string, attrs: Record<string, unknown>, rel: Record<string, unknown>) {
  return {
    type: 'projection',
    id,
    attributes: { status: 'pre_game', is_promo: false, updated_at: '2026-11-21T20:00:00Z', ...attrs },
    relationships: { duration: { data: null }, ...rel },
  };
}

const nbaRel = (pid: string) => ({
  new_player: player(pid),
  league: league('7'),
  game: { data: { type: 'game', id: '9001' } },
});
const nbaAttrs = (stat: string, line: number, oddsType = 'standard') => ({
  stat_type: stat,
  line_score: line,
  odds_type: oddsType,
  start_time: '2026-11-22T00:30:00.000-00:00',
  game_id: 'NBA_game_9001',
  description: 'LAL',
});

/** Newer format: game objects, odds_type with goblin/demon alternates, a combo player, an unmapped stat, a broken item. */
export function prizePicksNba(tatumPoints = 27.5): Payload {
  return {
    data: [
      projection('1', nbaAttrs('Points', tatumPoints), nbaRel('501')),
      projection('2', nbaAttrs('Points', tatumPoints - 2, 'goblin'), nbaRel('501')),
      projection('3', nbaAttrs('Points', tatumPoints + 3, 'demon'), nbaRel('501')),
      projection('4', { ...nbaAttrs('Pts+Rebs+Asts', 40.5), description: 'BOS' }, nbaRel('502')),
      projection('5', { ...nbaAttrs('3-PT Made', 3.5), description: 'BOS' }, nbaRel('503')),
      projection('6', { ...nbaAttrs('Points', 50.5), event_type: 'combo' }, nbaRel('504')),
      projection('7', nbaAttrs('Points (Combo)', 45.5), nbaRel('501')),
      projection('8', nbaAttrs('Dunks', 1.5), nbaRel('501')),
      projection('9', { ...nbaAttrs('Rebounds', 8.5), line_score: 'n/a' }, nbaRel('501')),
    ],
    included: [
      { type: 'league', id: '7', attributes: { name: 'NBA' } },
      {
        type: 'new_player',
        id: '501',
        attributes: {
          name: 'Jayson Tatum',
          display_name: 'Jayson Tatum',
          team: 'BOS',
          team_name: 'Celtics',
          league: 'NBA',
          league_id: 7,
          image_url: 'https://static.prizepicks.com/images/players/tatum.webp',
        },
        relationships: { league: league('7') },
      },
      {
        type: 'new_player',
        id: '502',
        attributes: { name: 'LeBron James', display_name: 'LeBron James', team: 'LAL', league: 'NBA', league_id: 7 },
      },
      {
        type: 'new_player',
        id: '503',
        attributes: { name: 'Luka Doncic', display_name: 'Luka Doncic', team: 'LAL', league: 'NBA', league_id: 7 },
      },
      {
        type: 'new_player',
        id: '504',
        attributes: {
          combo: true,
          name: 'Jayson Tatum + LeBron James',
          display_name: 'Jayson Tatum + LeBron James',
          team: 'BOS/LAL',
          league: 'NBA',
        },
      },
      {
        type: 'game',
        id: '9001',
        attributes: {
          is_live: false,
          status: 'scheduled',
          start_time: '2026-11-22T00:30:00.000-00:00',
          metadata: { game_info: { teams: { home: { abbreviation: 'BOS' }, away: { abbreviation: 'LAL' } } } },
        },
      },
    ],
  };
}

/** Older format (as recorded in 2023): no odds_type, no game_id, no game objects. */
export function prizePicksMlbOld(): Payload {
  return {
    data: [
      projection(
        '21',
        {
          stat_type: 'Pitcher Strikeouts',
          line_score: 7.5,
          start_time: '2026-11-21T23:05:00-05:00',
          description: 'BOS',
        },
        { new_player: player('601'), league: league('2') },
      ),
      projection(
        '22',
        { stat_type: 'Total Bases', line_score: 1.5, start_time: '2026-11-21T23:05:00-05:00', description: 'NYY' },
        { new_player: player('602'), league: league('2') },
      ),
    ],
    included: [
      {
        type: 'new_player',
        id: '601',
        attributes: { name: 'Gerrit Cole', team: 'NYY', team_name: 'Yankees', league: 'MLB', league_id: 2 },
      },
      {
        type: 'new_player',
        id: '602',
        attributes: { name: 'Rafael Devers', team: 'BOS', team_name: 'Red Sox', league: 'MLB', league_id: 2 },
      },
    ],
  };
}

export const option = (choice: 'higher' | 'lower', american?: string) => ({
  id: `opt-${choice}`,
  choice,
  choice_display: choice === 'higher' ? 'Higher' : 'Lower',
  payout_multiplier: '1.0',
  ...(american === undefined ? {} : { american_price: american, decimal_price: '1.87' }),
});

export function udLine(id: string, appearance: string, stat: string, value: string, options: unknown[], extra = {}) {
  return {
    id,
    stat_value: value,
    status: 'active',
    live_event: false,
    live_event_stat: null,
    over_under: { appearance_stat: { appearance_id: appearance, stat, display_stat: stat } },
    options,
    ...extra,
  };
}

/** Every sport in one payload; american_price on some lines, payout multipliers only on others, one-sided lines. */
export function underdog(tatumOver = '-120'): Payload {
  return {
    over_under_lines: [
      udLine('l1', 'a-tatum', 'points', '27.5', [option('higher', tatumOver), option('lower', '+100')]),
      udLine('l2', 'a-tatum', 'rebounds', '8.5', [option('higher', '-130')]),
      udLine('l3', 'a-lebron', 'pts_rebs_asts', '41.5', [option('higher'), option('lower')]),
      udLine('l4', 'a-luka', 'three_points_made', '2.5', [option('higher', '-105'), option('lower', '-115')]),
      udLine('l5', 'a-luka', 'points', '30.5', [option('higher', '-110'), option('lower', '-110')], {
        status: 'suspended',
      }),
      udLine('l6', 'a-missing', 'points', '10.5', []),
      udLine('l7', 'a-cole', 'strikeouts', '7.5', [option('higher', '-110'), option('lower', '-110')]),
      udLine('l8', 'a-cole', 'fantasy_points', '35.5', [option('higher', '-110'), option('lower', '-110')]),
    ],
    appearances: [
      { id: 'a-tatum', player_id: 'p-tatum', match_id: 77, team_id: 'team-bos' },
      { id: 'a-lebron', player_id: 'p-lebron', match_id: 77, team_id: 'team-lal' },
      { id: 'a-luka', player_id: 'p-luka', match_id: 77, team_id: 'team-lal' },
      { id: 'a-cole', player_id: 'p-cole', match_id: 88, team_id: 'team-nyy' },
    ],
    players: [
      {
        id: 'p-tatum',
        first_name: 'Jayson',
        last_name: 'Tatum',
        sport_id: 'NBA',
        team_id: 'team-bos',
        image_url: null,
      },
      { id: 'p-lebron', first_name: 'LeBron', last_name: 'James', sport_id: 'NBA', team_id: 'team-lal' },
      { id: 'p-luka', first_name: 'Luka', last_name: 'Dončić', sport_id: 'NBA', team_id: 'team-lal' },
      { id: 'p-cole', first_name: 'Gerrit', last_name: 'Cole', sport_id: 'MLB', team_id: 'team-nyy' },
    ],
    games: [
      {
        id: 77,
        title: 'LAL @ BOS',
        sport_id: 'NBA',
        scheduled_at: '2026-11-22T00:40:00Z',
        status: 'scheduled',
        home_team_id: 'team-bos',
        away_team_id: 'team-lal',
        period: 0,
      },
      {
        id: 88,
        title: 'NYY @ BOS',
        sport_id: 'MLB',
        scheduled_at: '2026-11-22T04:05:00Z',
        status: 'scheduled',
        home_team_id: 'team-bos',
        away_team_id: 'team-nyy',
        period: 0,
      },
    ],
    solo_games: [{ id: 5, title: 'Masters R1', sport_id: 'PGA', scheduled_at: '2026-11-22T12:00:00Z' }],
  };
}

export const EMPTY_PRIZEPICKS = { data: [], included: [] };
