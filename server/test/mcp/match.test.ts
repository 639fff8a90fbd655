/** Team matching for find_game: what counts as naming a team, and what does not. */
import { describe, expect, it } from 'vitest';
import { gameScore, MATCH_THRESHOLD, teamScore } from '../../src/queries/teamMatch';

const matches = (query: string, team: string, sport: 'nba' | 'soccer' = 'nba') =>
  teamScore(query, team, sport) >= MATCH_THRESHOLD;

describe('teamScore', () => {
  it('official abbreviations and their aliases name exactly one team', () => {
    expect(teamScore('LAL', 'Los Angeles Lakers', 'nba')).toBe(1);
    expect(teamScore('pho', 'Phoenix Suns', 'nba')).toBe(1);
    expect(teamScore('LAC', 'Los Angeles Lakers', 'nba')).toBe(0);
    // "CHA" is Charlotte, even though its letters run through "Chicago".
    expect(teamScore('CHA', 'Chicago Bulls', 'nba')).toBe(0);
    expect(teamScore('CHA', 'Charlotte Hornets', 'nba')).toBe(1);
  });

  it('names, nicknames, cities, initials and typos', () => {
    expect(matches('Boston Celtics', 'Boston Celtics')).toBe(true);
    expect(matches('celtics', 'Boston Celtics')).toBe(true);
    expect(matches('golden state', 'Golden State Warriors')).toBe(true);
    expect(matches('warriers', 'Golden State Warriors')).toBe(true);
    expect(matches('bost', 'Boston Celtics')).toBe(true);
    expect(matches('man utd', 'Manchester United', 'soccer')).toBe(true);
    expect(matches('atletico', 'Atlético Madrid', 'soccer')).toBe(true);
  });

  it('does not match other teams', () => {
    expect(matches('celtics', 'Brooklyn Nets')).toBe(false);
    expect(matches('los angeles', 'Boston Celtics')).toBe(false);
    expect(matches('heat', 'Miami Dolphins')).toBe(false);
    expect(matches('xyz', 'New York Knicks')).toBe(false);
  });
});

describe('gameScore', () => {
  const game = { sport: 'nba' as const, homeTeam: 'Los Angeles Lakers', awayTeam: 'Boston Celtics' };
  it('one team, or both in either order', () => {
    expect(gameScore('lakers', game)).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
    expect(gameScore('Celtics @ Lakers', game)).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
    expect(gameScore('lakers vs. celtics', game)).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
  });
  it('both teams must match when two are given', () => {
    expect(gameScore('lakers vs knicks', game)).toBeLessThan(MATCH_THRESHOLD);
  });
});
