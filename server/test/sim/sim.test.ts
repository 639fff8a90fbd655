/**
 * The simulated upstream: deterministic under a seed, a slate for every sport with live and
 * pre-game games, lines priced and moved the way the books do, finals, served over loopback
 * in both wire formats and read back by the real adapters without loss.
 */
import { SPORT_IDS, STAT_KEYS } from '@propsfeed/contract';
import {
  FINAL_KEEP_MS,
  renderPrizePicks,
  renderUnderdog,
  SIM_SPORTS,
  type SimGame,
  type SimServer,
  SimWorld,
  startSimServer,
} from '@propsfeed/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/books';

const NOW = Date.parse('2026-11-22T01:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;

function slateAt(world: SimWorld, t: number) {
  const pp = SPORT_IDS.map((s) => ADAPTERS.prizepicks.parse(renderPrizePicks(world, s, t)));
  const ud = ADAPTERS.underdog.parse(renderUnderdog(world, t));
  return { pp, ud };
}

describe('simulated world', () => {
  it('is deterministic under a seed and differs between seeds', () => {
    const a = JSON.stringify(renderUnderdog(new SimWorld(7), NOW));
    expect(JSON.stringify(renderUnderdog(new SimWorld(7), NOW))).toBe(a);
    expect(JSON.stringify(renderUnderdog(new SimWorld(8), NOW))).not.toBe(a);
    expect(JSON.stringify(renderPrizePicks(new SimWorld(7), 'nba', NOW))).toBe(
      JSON.stringify(renderPrizePicks(new SimWorld(7), 'nba', NOW)),
    );
  });

  it('has every sport on the board, real teams and catalog stats, live and pre-game games over a week', () => {
    const world = new SimWorld(1);
    const { pp, ud } = slateAt(world, NOW);
    for (const sport of SIM_SPORTS) {
      expect(world.gamesAt(sport, NOW, 0).length, sport.id).toBeGreaterThan(0);
      const states = new Set<string>();
      for (let t = NOW; t < NOW + 7 * 24 * HOUR; t += HOUR) {
        for (const g of world.gamesAt(sport, t, 0)) states.add(world.live(g, t).state);
      }
      expect([...states], sport.id).toEqual(expect.arrayContaining(['live', 'pre']));
      for (const g of world.gamesAt(sport, NOW, 0))
        expect(sport.teams).toEqual(expect.arrayContaining([g.home, g.away]));
    }
    for (const r of [...pp, ud]) {
      expect(r.skipped).toBe(0);
      for (const l of r.slate.lines) {
        const sport = r.slate.games.find((g) => g.id === l.gameId)?.sport ?? 'nba';
        expect(STAT_KEYS[sport] as readonly string[]).toContain(l.stat);
      }
    }
    // The one stat Underdog posts that the catalog lacks is counted, not guessed.
    expect(Object.keys(ud.unmapped)).toEqual(['nba:period_1_points']);
  });

  it('carries clocks and in-game values while live, and final values after', () => {
    const world = new SimWorld(1);
    const { pp, ud } = slateAt(world, NOW);
    const liveNba = ud.slate.games.filter((g) => g.state === 'live' && g.sport === 'nba');
    expect(liveNba.length).toBeGreaterThan(0);
    for (const g of liveNba) expect(g.clock).toMatch(/^(Q[1-4]|OT\d) \d{1,2}:\d{2}$/);
    const liveLines = ud.slate.lines.filter((l) => liveNba.some((g) => g.id === l.gameId));
    expect(liveLines.every((l) => l.liveValue !== undefined)).toBe(true);
    const ppNba = pp[SPORT_IDS.indexOf('nba')];
    expect(ppNba?.slate.games.some((g) => g.state === 'live' && g.clock)).toBe(true);

    const nba = world.sport('nba');
    const game = world.gamesAt(nba, NOW, 0).find((g) => world.live(g, NOW).state === 'live');
    if (!game) throw new Error('no live game');
    expect(world.live(game, game.endMs).state).toBe('final');
    const prop = world.props(game, game.endMs).find((p) => p.value !== undefined);
    if (!prop) throw new Error('no prop');
    const mid = world.value(game, prop.player, prop.stat, (game.startMs + game.endMs) / 2);
    expect(mid).toBeLessThanOrEqual(prop.value as number);
    // Final games leave PrizePicks and stay on Underdog a while, with their final values.
    expect(prop.ppLine).toBeUndefined();
  });

  it('moves lines over time, more near the start than a day out, and most in-game', () => {
    const world = new SimWorld(1);
    const games = SIM_SPORTS.flatMap((s) => world.gamesAt(s, NOW + 20 * HOUR, 0)).filter(
      (g) => g.openMs <= g.startMs - 20 * HOUR,
    );
    const changes = (g: SimGame, from: number, to: number) => {
      const a = world.props(g, from).map((p) => `${p.ppLine ?? p.udLine} ${p.udOver}`);
      const b = world.props(g, to).map((p) => `${p.ppLine ?? p.udLine} ${p.udOver}`);
      return a.filter((x, i) => x !== b[i]).length;
    };
    // Per game: 3 hours a day out, the last 3 hours before the start, and half an hour in-game.
    let early = 0;
    let late = 0;
    let inGame = 0;
    for (const g of games) {
      early += changes(g, g.startMs - 20 * HOUR, g.startMs - 17 * HOUR);
      late += changes(g, g.startMs - 3 * HOUR, g.startMs - MIN);
      inGame += changes(g, g.startMs + 10 * MIN, g.startMs + 40 * MIN);
    }
    expect(games.length).toBeGreaterThan(20);
    expect(early).toBeGreaterThan(0);
    expect(late).toBeGreaterThan(2 * early);
    expect(inGame).toBeGreaterThan(late);
  });

  it('posts about as many lines per game as the books do (PrizePicks: 60–100 standard NBA lines)', () => {
    const world = new SimWorld(20261122);
    const nba = world.sport('nba');
    const pregame = world.gamesAt(nba, NOW, 0).filter((g) => g.startMs > NOW);
    expect(pregame.length).toBeGreaterThan(3);
    for (const g of pregame) {
      const pp = world.props(g, NOW).filter((p) => p.ppLine !== undefined).length;
      expect(pp).toBeGreaterThanOrEqual(60);
      expect(pp).toBeLessThanOrEqual(100);
    }
  });

  it('keeps at least 4,000 props on the board at every hour of a week, never a team twice in a sport', () => {
    const world = new SimWorld(20261122);
    const sizes: number[] = [];
    // Every hour of the tests' day, every fifth hour of the rest of the week (so every hour of the day is met).
    const day = Date.parse('2026-11-22T00:00:00Z');
    for (let h = 0; h < 7 * 24; h += h < 24 ? 1 : 5) {
      const t = day + h * HOUR;
      let n = 0;
      for (const sport of SIM_SPORTS) {
        const games = world.gamesAt(sport, t, FINAL_KEEP_MS);
        const teams = games.flatMap((g) => [g.home, g.away]);
        expect(new Set(teams).size, `${sport.id} at ${new Date(t).toISOString()}`).toBe(teams.length);
        for (const g of games) {
          for (const p of world.props(g, t)) if (p.ppLine !== undefined || p.udLine !== undefined) n++;
        }
      }
      sizes.push(n);
    }
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(4_000);
  });
});

describe('simulator server', () => {
  let sim: SimServer;
  beforeAll(async () => {
    sim = await startSimServer(new SimWorld(1), () => NOW);
  });
  afterAll(() => sim.close());

  it('serves both books on loopback, parsed by the real adapters', async () => {
    expect(sim.prizepicksUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/prizepicks$/);
    const url = ADAPTERS.prizepicks.requests(sim.prizepicksUrl).find((r) => r.part === 'nba')?.url ?? '';
    const pp = ADAPTERS.prizepicks.parse(await (await fetch(url)).json());
    expect(pp.slate.games.length).toBeGreaterThan(5);
    const [ud] = ADAPTERS.underdog.requests(sim.underdogUrl);
    const parsed = ADAPTERS.underdog.parse(await (await fetch(ud?.url ?? '')).json());
    expect(new Set(parsed.slate.games.map((g) => g.sport))).toEqual(new Set(SPORT_IDS));
    expect((await fetch(`${sim.prizepicksUrl}/nothing`)).status).toBe(404);
  });
});
