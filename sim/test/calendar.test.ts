/**
 * The simulated calendar and rosters look like a real day: each sport plays in its own
 * rhythm and local hours, no team twice a day (NFL and college football: once a week), and
 * players carry names of their sport, none twice.
 */
import { describe, expect, it } from 'vitest';
import { NAME_POOLS } from '../src/names';
import { SIM_SPORTS, type SimGame, SimWorld } from '../src/world';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Monday 16 November 2026, midnight Eastern (05:00 UTC). */
const WEEK_START = Date.parse('2026-11-16T05:00:00Z');
const world = new SimWorld(20261122);

/** A game's start in Eastern time: weekday (0 = Sunday) and hour. */
function eastern(ms: number): { day: number; hour: number } {
  const d = new Date(ms - 5 * HOUR);
  return { day: d.getUTCDay(), hour: d.getUTCHours() + d.getUTCMinutes() / 60 };
}

/** The games of each Eastern day of two weeks, per sport. */
function days(id: string): SimGame[][] {
  const sport = SIM_SPORTS.find((s) => s.id === id);
  if (!sport) throw new Error(id);
  return Array.from({ length: 14 }, (_, d) =>
    world.gamesStarting(sport, WEEK_START + d * DAY, WEEK_START + (d + 1) * DAY),
  );
}

describe('simulated calendar', () => {
  it('never has a team play twice in a day, nor twice a week in the weekly leagues', () => {
    for (const sport of SIM_SPORTS) {
      const perDay = days(sport.id);
      for (const games of perDay) {
        const teams = games.flatMap((g) => [g.home, g.away]);
        expect(new Set(teams).size, sport.id).toBe(teams.length);
      }
      if (sport.id === 'nfl' || sport.id === 'ncaaf') {
        // Weeks run Tuesday to Monday: Eastern days 1–7 of the two weeks.
        const week = perDay.slice(1, 8).flat();
        const teams = week.flatMap((g) => [g.home, g.away]);
        expect(new Set(teams).size, sport.id).toBe(teams.length);
      }
    }
  });

  it('plays NBA evenings of 5–12 games, MLB afternoons and evenings, NFL on Thursday, Sunday and Monday', () => {
    for (const games of days('nba')) {
      expect(games.length).toBeGreaterThanOrEqual(5);
      expect(games.length).toBeLessThanOrEqual(12);
      for (const g of games) expect(eastern(g.startMs).hour).toBeGreaterThanOrEqual(15);
      expect(games.filter((g) => eastern(g.startMs).hour >= 19).length).toBeGreaterThan(games.length / 2);
    }
    const mlbHours = days('mlb')
      .flat()
      .map((g) => eastern(g.startMs).hour);
    expect(mlbHours.some((h) => h < 17)).toBe(true);
    expect(mlbHours.some((h) => h >= 18.5)).toBe(true);
    const nflDays = new Set(
      days('nfl')
        .flat()
        .map((g) => eastern(g.startMs).day),
    );
    expect([...nflDays].sort()).toEqual([0, 1, 4]);
    const sundays = days('nfl').filter((games) => games.some((g) => eastern(g.startMs).day === 0));
    for (const games of sundays) expect(games.length).toBeGreaterThanOrEqual(10);
  });

  it('plays soccer in European hours and League of Legends in Asian, European and American ones', () => {
    for (const g of days('soccer').flat()) {
      const utcHour = new Date(g.startMs).getUTCHours();
      expect(utcHour).toBeGreaterThanOrEqual(11);
      expect(utcHour).toBeLessThanOrEqual(21);
    }
    const lolHours = new Set(
      days('lol')
        .flat()
        .map((g) => new Date(g.startMs).getUTCHours()),
    );
    // Seoul and Shanghai evenings (08–11 UTC), Berlin's (17–18), Los Angeles' afternoons (22–00).
    expect([...lolHours].some((h) => h >= 8 && h <= 11)).toBe(true);
    expect([...lolHours].some((h) => h >= 17 && h <= 18)).toBe(true);
    expect([...lolHours].some((h) => h >= 22 || h === 0)).toBe(true);
  });
});

describe('simulated rosters', () => {
  it('name players from their sport’s pool, each name once per sport', () => {
    const pools = {
      nba: NAME_POOLS.basketball,
      wnba: NAME_POOLS.womensBasketball,
      ncaab: NAME_POOLS.basketball,
      mlb: NAME_POOLS.baseball,
      nfl: NAME_POOLS.football,
      ncaaf: NAME_POOLS.football,
      nhl: NAME_POOLS.hockey,
      soccer: NAME_POOLS.soccer,
    } as Record<string, { first: readonly string[]; last: readonly string[] }>;
    for (const sport of SIM_SPORTS) {
      const players = sport.teams.flatMap((t) => world.roster(sport, t));
      const names = players.map((p) => p.name);
      expect(new Set(names).size, sport.id).toBe(names.length);
      const pool = pools[sport.id];
      if (!pool) continue;
      for (const name of names) {
        const first = pool.first.find((f) => name.startsWith(`${f} `));
        expect(first, name).toBeDefined();
        const last = name.slice((first as string).length + 1).replace(/ (Jr\.|II|III)$/, '');
        expect(pool.last, name).toContain(last);
      }
    }
  });

  it('gives each player stable means that his lines and his game logs share', () => {
    const nba = world.sport('nba');
    const team = nba.teams[0] as string;
    const [player] = world.roster(nba, team);
    if (!player) throw new Error('no player');
    expect(new SimWorld(20261122).roster(nba, team)[0]?.means).toEqual(player.means);
    // Over many games, the posted points line and the final points both centre on the mean.
    const games = days('nba')
      .flat()
      .concat(world.gamesStarting(nba, WEEK_START + 14 * DAY, WEEK_START + 120 * DAY))
      .filter((g) => g.home === team || g.away === team);
    const mean = world.mean(nba, player, 'points');
    const finals = games.map((g) => world.value(g, player, 'points', g.endMs));
    const lines = games
      .map((g) => world.props(g, g.startMs - HOUR).find((p) => p.player === player && p.stat === 'points'))
      .map((p) => p?.ppLine ?? p?.udLine ?? Number.NaN)
      .filter((l) => !Number.isNaN(l));
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(games.length).toBeGreaterThan(40);
    expect(Math.abs(avg(finals) - mean) / mean).toBeLessThan(0.08);
    expect(Math.abs(avg(lines) - mean) / mean).toBeLessThan(0.08);
  });
});
