/**
 * WNBA end to end through the adapters: PrizePicks league 3 and Underdog sport `WNBA`, the
 * franchises under the abbreviations each book writes, the NBA's stat keys and clock, and the
 * tier table (pro and up).
 */
import { STAT_KEYS } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import { formatClock } from '../../src/books/clock';
import { parsePrizePicks, prizePicksUrl } from '../../src/books/prizepicks';
import { teamAbbreviation, teamName, WNBA_TEAMS } from '../../src/books/teams';
import { parseUnderdog } from '../../src/books/underdog';
import { allowsSport, effectivePolicy, lowestTierForSport } from '../../src/limits/policy';

const ppPayload = {
  data: [
    ['1', 'Points', 21.5, 'standard'],
    ['2', '3-PT Made', 2.5, 'standard'],
    ['3', 'Fantasy Score', 38.5, 'standard'],
    ['4', 'Points', 18.5, 'goblin'],
  ].map(([id, stat, line, oddsType]) => ({
    type: 'projection',
    id,
    attributes: {
      stat_type: stat,
      line_score: line,
      odds_type: oddsType,
      status: 'pre_game',
      is_live: false,
      start_time: '2025-06-15T18:00:00-04:00',
      description: 'PHO',
    },
    relationships: {
      new_player: { data: { type: 'new_player', id: '900' } },
      league: { data: { type: 'league', id: '3' } },
      game: { data: { type: 'game', id: '500' } },
    },
  })),
  included: [
    {
      type: 'new_player',
      id: '900',
      attributes: { display_name: "A'ja Wilson", name: "A'ja Wilson", team: 'LVA', league: 'WNBA', league_id: 3 },
    },
    {
      type: 'game',
      id: '500',
      attributes: {
        is_live: false,
        status: 'scheduled',
        start_time: '2025-06-15T18:00:00-04:00',
        metadata: { game_info: { teams: { home: { abbreviation: 'LVA' }, away: { abbreviation: 'PHO' } } } },
      },
    },
  ],
};

const udPayload = {
  over_under_lines: [
    {
      id: 'l1',
      stat_value: '22.5',
      status: 'active',
      over_under: { appearance_stat: { appearance_id: 'a1', stat: 'points' } },
      options: [{ choice: 'higher', american_price: '-115' }],
    },
  ],
  appearances: [{ id: 'a1', player_id: 'p1', match_id: 31, team_id: 't-lv' }],
  players: [{ id: 'p1', first_name: "A'ja", last_name: 'Wilson', sport_id: 'WNBA', team_id: 't-lv' }],
  games: [
    {
      id: 31,
      title: 'PHX @ LV',
      sport_id: 'WNBA',
      scheduled_at: '2025-06-15T22:00:00Z',
      status: 'scheduled',
      home_team_id: 't-lv',
      away_team_id: 't-phx',
    },
  ],
};

describe('WNBA', () => {
  it('has the 13 franchises, each found by the abbreviations both books write', () => {
    expect(Object.keys(WNBA_TEAMS).sort()).toEqual(
      ['ATL', 'CHI', 'CON', 'DAL', 'GSV', 'IND', 'LAS', 'LVA', 'MIN', 'NYL', 'PHO', 'SEA', 'WAS'].sort(),
    );
    const aliases = { LV: 'LVA', LA: 'LAS', PHX: 'PHO', CONN: 'CON', NY: 'NYL', GS: 'GSV', WSH: 'WAS' };
    for (const [alias, abbr] of Object.entries(aliases)) expect(teamName('wnba', alias)).toBe(WNBA_TEAMS[abbr]);
    for (const [abbr, full] of Object.entries(WNBA_TEAMS)) expect(teamAbbreviation('wnba', full)).toBe(abbr);
    // The same letters name another league's team only in that league.
    expect(teamName('wnba', 'WAS')).toBe('Washington Mystics');
    expect(teamName('nba', 'WAS')).toBe('Washington Wizards');
  });

  it('reads PrizePicks league 3 with the NBA stat keys and the game object’s sides', () => {
    expect(new URL(prizePicksUrl('http://pp.test', 'wnba')).searchParams.get('league_id')).toBe('3');
    const r = parsePrizePicks(ppPayload);
    expect(r.slate.games).toEqual([
      expect.objectContaining({
        id: 'pp_500',
        sport: 'wnba',
        homeTeam: 'Las Vegas Aces',
        awayTeam: 'Phoenix Mercury',
        homeKnown: true,
      }),
    ]);
    expect(r.slate.lines.map((l) => [l.player, l.team, l.stat, l.line])).toEqual([
      ["A'ja Wilson", 'Las Vegas Aces', 'points', 21.5],
      ["A'ja Wilson", 'Las Vegas Aces', 'threes', 2.5],
      ["A'ja Wilson", 'Las Vegas Aces', 'fantasy_points', 38.5],
    ]);
    expect(STAT_KEYS.wnba).toEqual(STAT_KEYS.nba);
  });

  it('reads Underdog sport WNBA, whose titles use the other spellings (PHX @ LV)', () => {
    const r = parseUnderdog(udPayload);
    expect(r.slate.games).toEqual([
      expect.objectContaining({ sport: 'wnba', homeTeam: 'Las Vegas Aces', awayTeam: 'Phoenix Mercury' }),
    ]);
    expect(r.slate.lines.map((l) => [l.team, l.stat, l.line, l.overOdds])).toEqual([
      ['Las Vegas Aces', 'points', 22.5, -115],
    ]);
  });

  it('keeps the clock in quarters, as the NBA does', () => {
    expect(formatClock('wnba', 2, '05:32')).toBe('Q2 5:32');
    expect(formatClock('wnba', 5, '1:10')).toBe('OT1 1:10');
  });

  it('is in pro, sharp and enterprise, not in free', () => {
    expect(lowestTierForSport('wnba')).toBe('pro');
    expect(allowsSport(effectivePolicy('free'), 'wnba')).toBe(false);
    for (const tier of ['pro', 'sharp', 'enterprise'] as const) {
      expect(allowsSport(effectivePolicy(tier), 'wnba')).toBe(true);
    }
  });
});
