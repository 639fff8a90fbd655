/**
 * The books' desk (sim/desk.ts): its read of a player is the posterior mean of his mean given
 * every public game and his role, so its error is independent of what a model can read from
 * the same logs. The old read (a quarter the true mean, three quarters the last ten games)
 * left an error a model could invert; this one leaves none.
 */
import { describe, expect, it } from 'vitest';
import { BaseGames, DeskPosterior, logGamma } from '../src/desk';
import { pastGameLogs } from '../src/gameLogs';
import { SIM_SPORTS, SimWorld } from '../src/world';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-22T00:00:00Z');

describe('the desk', () => {
  it('ln Γ to about 14 digits', () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 13);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 13);
    expect(logGamma(30.5)).toBeCloseTo(72.9534711841694, 11);
  });

  it('tallies a sliding season as it tallies a fresh one', () => {
    const values = [3, 0, 7, 2, 2, 11, 4];
    const fresh = new BaseGames(4, 0.04);
    for (const v of values.slice(1)) fresh.add(v);
    const slid = new BaseGames(4, 0.04);
    for (const v of values.slice(0, -1)) slid.add(v);
    const next = slid.copy();
    next.add(values[values.length - 1] as number);
    next.add(values[0] as number, -1);
    expect([next.n, next.sum, next.squares]).toEqual([fresh.n, fresh.sum, fresh.squares]);
    expect(next.countConstant()).toBe(fresh.countConstant());
  });

  it('reads the role alone without games: the role mean, the spread of level × own factor', () => {
    const posterior = new DeskPosterior(new Map([['points', new BaseGames(20, 0.04)]]));
    const read = posterior.belief(new Map([['points', { weight: 1, roleMean: 20 }]]));
    expect(read.mean).toBeCloseTo(20, 10);
    // Level U(0.75, 1.25) × own U(0.9, 1.1): variance (1 + 0.5²/12)(1 + 0.2²/12) − 1 = 0.02423, on a
    // grid of midpoints a little less (32 and 7 points).
    expect(read.variance / 400).toBeGreaterThan(0.0235);
    expect(read.variance / 400).toBeLessThan(0.0243);
  });

  it('is calibrated, and what the logs show (season, form) does not predict its error', () => {
    const world = new SimWorld(20261122);
    const logs = pastGameLogs(world, NOW);
    const values = new Map<string, number[]>();
    for (const l of logs) {
      const key = `${l.sport}|${l.team}|${l.player}|${l.stat}`;
      values.set(key, [...(values.get(key) ?? []), l.value]);
    }
    // z-scores in units of the desk's own uncertainty: the error, the season's and form's leans.
    const rows: { error: number; season: number; form: number }[] = [];
    for (const sport of SIM_SPORTS.filter((s) => ['nba', 'nhl', 'mlb'].includes(s.id))) {
      for (const game of world.gamesStarting(sport, NOW, NOW + DAY)) {
        for (const team of [game.home, game.away]) {
          for (const player of world.roster(sport, team)) {
            for (const stat of player.slot.posted) {
              const read = world.deskRead(game, player, stat);
              // pastGameLogs lists each player's games newest first.
              const seen = values.get(`${sport.id}|${team}|${player.name}|${stat}`) ?? [];
              if (seen.length < 20) continue;
              const sd = Math.sqrt(read.variance);
              const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
              rows.push({
                error: (world.mean(sport, player, stat) - read.mean) / sd,
                season: (mean(seen) - read.mean) / sd,
                form: (mean(seen.slice(0, 10)) - read.mean) / sd,
              });
            }
          }
        }
      }
    }
    expect(rows.length).toBeGreaterThan(1_000);
    const z2 = rows.reduce((a, r) => a + r.error ** 2, 0) / rows.length;
    expect(z2).toBeGreaterThan(0.8);
    expect(z2).toBeLessThan(1.25);
    // Least-squares slope of the error on each lean: about 0 (the old read's error had a slope
    // near −0.75 on form's lean).
    const slope = (x: (r: (typeof rows)[number]) => number) =>
      rows.reduce((a, r) => a + x(r) * r.error, 0) / rows.reduce((a, r) => a + x(r) ** 2, 0);
    expect(Math.abs(slope((r) => r.season))).toBeLessThan(0.15);
    expect(Math.abs(slope((r) => r.form))).toBeLessThan(0.15);
  });
});
