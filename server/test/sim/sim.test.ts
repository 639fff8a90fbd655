/**
 * The simulated upstream: deterministic under a seed, a full slate for every sport with
 * live and pre-game games, moving lines, finals, served over loopback in both wire formats
 * and read back by the real adapters without loss.
 */
import { SPORT_IDS, STAT_KEYS } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/books';
import { renderPrizePicks, renderUnderdog } from '../../src/sim/render';
import { type SimServer, startSimServer } from '../../src/sim/server';
import { SIM_SPORTS, SimWorld } from '../../src/sim/world';

const NOW = Date.parse('2026-11-22T01:00:00Z');
const HOUR = 3_600_000;

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

  it('gives a fixed seed exact values', () => {
    const world = new SimWorld(20261122);
    const nba = world.sport('nba');
    const game = world.gamesAt(nba, NOW, 0)[0];
    const prop = game ? world.props(game, NOW)[0] : undefined;
    expect({ home: game?.home, away: game?.away, player: prop?.player.name, stat: prop?.stat }).toEqual({
      home: 'Memphis Grizzlies',
      away: 'Miami Heat',
      player: 'Luka Mitchell',
      stat: 'points',
    });
    expect({ pp: prop?.ppLine, ud: prop?.udLine, over: prop?.udOver, under: prop?.udUnder }).toEqual({
      pp: 19.5,
      ud: 19.5,
      over: -125,
      under: 105,
    });
  });

  it('has a full slate for every sport: real teams, catalog stats, live and pre-game games', () => {
    const world = new SimWorld(1);
    const { pp, ud } = slateAt(world, NOW);
    for (const sport of SIM_SPORTS) {
      const games = world.gamesAt(sport, NOW, 0);
      const states = games.map((g) => world.live(g, NOW).state);
      expect(states, sport.id).toContain('pre');
      expect(states, sport.id).toContain('live');
      for (const g of games) expect(sport.teams).toEqual(expect.arrayContaining([g.home, g.away]));
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
    const total = pp.reduce((n, r) => n + r.slate.lines.length, 0);
    expect(total).toBeGreaterThan(2_000);
    expect(ud.slate.lines.length).toBeGreaterThan(2_000);
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

  it('moves lines over time', () => {
    const world = new SimWorld(1);
    const nba = world.sport('nba');
    const game = world.gamesAt(nba, NOW + 11 * HOUR, 0).at(-1);
    if (!game) throw new Error('no game');
    const open = world.props(game, game.startMs - 11.9 * HOUR).map((p) => p.ppLine ?? p.udLine);
    const late = world.props(game, game.startMs - 5 * 60_000).map((p) => p.ppLine ?? p.udLine);
    const moved = open.filter((l, i) => l !== late[i]).length;
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(open.length);
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
