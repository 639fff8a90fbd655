/**
 * The simulated books name no real third-party host: their players do not exist, so a photo
 * URL on a book's image host would send an app's requests to that host for a broken image.
 * Walks every string of both books' payloads, every sport, every hour of a day and night.
 */
import { SPORT_IDS } from '@propsfeed/contract';
import { renderPrizePicks, renderUnderdog, SimWorld } from '@propsfeed/sim';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/books';
import { thirdPartyHosts } from '../helpers/hosts';

const HOUR = 3_600_000;
const DAY_START = Date.parse('2026-11-22T00:00:00Z');

describe('the simulated books’ output', () => {
  it('the walk finds a host wherever one is named, and passes loopback', () => {
    expect([
      ...thirdPartyHosts({
        a: [{ image_url: 'https://static.prizepicks.com/images/players/sim/200583.webp' }],
        b: 'see assets.underdogfantasy.com/player-images/x.png',
        c: 'http://127.0.0.1:8871/api/v1/games',
        d: 'Cedric Cooper',
      }).keys(),
    ]).toEqual(['static.prizepicks.com', 'assets.underdogfantasy.com']);
  });

  it('names no host but loopback in any payload of the day, nor in what the adapters make of it', () => {
    const world = new SimWorld(20261122);
    let players = 0;
    for (let t = DAY_START; t < DAY_START + 24 * HOUR; t += 3 * HOUR) {
      const payloads: [string, object][] = [
        ...SPORT_IDS.map((s): [string, object] => [`prizepicks ${s}`, renderPrizePicks(world, s, t)]),
        ['underdog', renderUnderdog(world, t)],
      ];
      for (const [name, payload] of payloads) {
        const at = `${name} at ${new Date(t).toISOString()}`;
        expect(Object.fromEntries(thirdPartyHosts(payload)), at).toEqual({});
        const parsed = name === 'underdog' ? ADAPTERS.underdog.parse(payload) : ADAPTERS.prizepicks.parse(payload);
        expect(
          parsed.slate.lines.filter((l) => l.photoUrl !== undefined).map((l) => l.photoUrl),
          at,
        ).toEqual([]);
        players += parsed.slate.lines.length;
      }
    }
    // The walk saw a real board's worth of players.
    expect(players).toBeGreaterThan(10_000);
  });
});
