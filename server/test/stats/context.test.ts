import { describe, expect, it } from 'vitest';
import { type PlayedGame, statContext } from '../../src/stats/context';
import { projectStat } from '../../src/stats/projection';
import { seasonOf } from '../../src/stats/season';

/** Newest first: 11 games of the 2026-27 NBA season, then 2 of the season before. */
const games: PlayedGame[] = [
  ['2026-11-20', true, 30],
  ['2026-11-18', false, 22],
  ['2026-11-16', true, 25],
  ['2026-11-14', false, 18],
  ['2026-11-12', true, 28],
  ['2026-11-10', false, 31],
  ['2026-11-08', true, 20],
  ['2026-11-06', false, 24],
  ['2026-11-04', true, 27],
  ['2026-11-02', false, 19],
  ['2026-10-30', true, 26],
  ['2026-04-10', true, 40],
  ['2026-04-08', false, 35],
].map(([date, home, value], i) => ({
  date: date as string,
  home: home as boolean,
  value: value as number,
  opponent: `Team ${i}`,
}));

/** The same games in a scrambled order: nothing may depend on the order logs arrive in. */
const scrambled = [...games.slice(7), ...games.slice(0, 7).reverse()];

describe('statContext', () => {
  it('averages the season, last 10, last 5, home and away and rates hits over the season', () => {
    const ctx = statContext('nba', 'points', scrambled, 24.5);
    expect(ctx).toMatchObject({
      stat: 'points',
      line: 24.5,
      sampleN: 11,
      averages: { season: 24.55, last10: 24.4, last5: 24.6, home: 26, away: 22.8 },
      // 30, 25, 28, 31, 27 and 26 beat 24.5: 6 of the 11 season games.
      hitRate: 0.5455,
    });
    expect(ctx.recentForm).toHaveLength(10);
    expect(ctx.recentForm.slice(0, 3)).toEqual([
      { date: '2026-11-20', opponent: 'Team 0', home: true, value: 30, hit: true },
      { date: '2026-11-18', opponent: 'Team 1', home: false, value: 22, hit: false },
      { date: '2026-11-16', opponent: 'Team 2', home: true, value: 25, hit: true },
    ]);
    expect(ctx.recentForm.at(-1)).toEqual({
      date: '2026-11-02',
      opponent: 'Team 9',
      home: false,
      value: 19,
      hit: false,
    });
  });

  it('reads last 10 and last 5 across seasons but the season-only modes from the current one', () => {
    const early = games.slice(8); // 3 games of this season, 2 of the last
    const ctx = statContext('nba', 'points', early, 26);
    expect(ctx.sampleN).toBe(3);
    expect(ctx.averages).toEqual({ season: 24, last10: 29.4, last5: 29.4, home: 26.5, away: 19 });
    // 27 beats 26; 26 is a push, not a hit; 19 misses.
    expect(ctx.hitRate).toBe(0.3333);
    expect(ctx.recentForm.map((g) => g.hit)).toEqual([true, false, false, true, true]);
  });

  it('has no hit rate or hits without a line, and null averages without games', () => {
    expect(statContext('nba', 'points', games.slice(0, 2), null)).toMatchObject({
      line: null,
      hitRate: null,
      recentForm: [{ hit: null }, { hit: null }],
    });
    expect(statContext('nba', 'rebounds', [], 8.5)).toEqual({
      stat: 'rebounds',
      line: 8.5,
      sampleN: 0,
      averages: { season: null, last10: null, last5: null, home: null, away: null },
      recentForm: [],
      hitRate: null,
    });
  });
});

describe('projectStat', () => {
  it('is absent with 4 games and present with 5', () => {
    const five = [50, 40, 30, 20, 10].map((value, i) => ({
      date: `2026-11-0${i + 1}`,
      home: true,
      opponent: 'X',
      value,
    }));
    expect(projectStat('nba', 'points', five.slice(1))).toBeUndefined();
    expect(projectStat('nba', 'points', five)).toEqual({
      // Newest (10) weighs 1, then 0.8, 0.64, 0.512, 0.4096: 86.16 / 3.3616.
      value: 25.63,
      sampleN: 5,
      method: 'exponentially weighted mean of last 5 games (each game weighs 0.8× the next newer one)',
      marketKey: 'nba:points',
    });
  });

  it('reads only the newest 10 games', () => {
    expect(projectStat('nba', 'pra', scrambled)).toMatchObject({
      value: 25.05,
      sampleN: 10,
      method: 'exponentially weighted mean of last 10 games (each game weighs 0.8× the next newer one)',
      marketKey: 'nba:pra',
    });
  });
});

describe('seasonOf', () => {
  it('splits seasons at each sport’s opening month', () => {
    expect(seasonOf('nba', '2026-10-01')).toBe(2026);
    expect(seasonOf('nba', '2027-06-10')).toBe(2026);
    expect(seasonOf('nba', '2026-09-30')).toBe(2025);
    expect(seasonOf('mlb', '2026-11-01')).toBe(2026);
    expect(seasonOf('mlb', '2026-02-28')).toBe(2025);
    expect(seasonOf('lol', '2026-01-01')).toBe(2026);
  });
});
