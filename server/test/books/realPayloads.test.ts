/**
 * The adapters against real recorded payloads in ../shared/books (see SOURCES.md there).
 * A user's clone has no ../shared: the suite then skips, saying why.
 */
import { isStatKey } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import { parsePrizePicks } from '../../src/books/prizepicks';
import type { ParseResult } from '../../src/books/types';
import { parseUnderdog } from '../../src/books/underdog';
import { readSharedBook as read, SHARED_BOOKS, SHARED_BOOKS_NOTE } from '../helpers/sharedBooks';

function expectSane(r: ParseResult): void {
  expect(r.skipped).toBe(0);
  const games = new Set(r.slate.games.map((g) => g.id));
  for (const l of r.slate.lines) {
    expect(games.has(l.gameId), `line of unknown game ${l.gameId}`).toBe(true);
    const game = r.slate.games.find((g) => g.id === l.gameId);
    expect(isStatKey(game?.sport ?? 'nba', l.stat), `${l.stat} is a stat key`).toBe(true);
    expect(Number.isFinite(l.line)).toBe(true);
    expect(l.player).not.toContain(' + ');
  }
}

/** Each player's image_url in a payload, by the playerId the adapter gives the player. */
function imageUrls(file: string): Map<string, unknown> {
  const payload = read(file) as { included?: { type: string; id: string; attributes?: { image_url?: unknown } }[] };
  const players = (payload as { players?: { id: string; image_url?: unknown }[] }).players;
  if (players) return new Map(players.map((p) => [`ud_${p.id}`, p.image_url]));
  return new Map(
    (payload.included ?? [])
      .filter((i) => i.type === 'new_player' || i.type === 'player')
      .map((i) => [`pp_${i.id}`, i.attributes?.image_url]),
  );
}

describe.skipIf(!SHARED_BOOKS)(`real recorded payloads (${SHARED_BOOKS_NOTE})`, () => {
  it.each([
    ['prizepicks-tjjerome-1.json', parsePrizePicks],
    ['prizepicks-Czar68-1.json', parsePrizePicks],
    ['prizepicks-35eternal-wnba-live-2025-06-15.json', parsePrizePicks],
    ['underdog-tjjerome-1.json', parseUnderdog],
  ])("%s: every player keeps the book's own photo URL (trimmed)", (file, parse) => {
    const urls = imageUrls(file);
    const lines = parse(read(file)).slate.lines;
    const withPhoto = lines.filter((l) => l.photoUrl !== undefined);
    expect(withPhoto.length).toBeGreaterThan(lines.length / 2);
    for (const l of withPhoto) {
      expect(l.photoUrl).toBe(String(urls.get(l.playerId ?? '')).trim());
      expect(new URL(l.photoUrl as string).protocol).toBe('https:');
    }
    // A player the book gives no image has none.
    for (const l of lines) if (!urls.get(l.playerId ?? '')) expect(l.photoUrl).toBeUndefined();
  });

  it('PrizePicks, older format (MLB 2023): games keyed without game objects, no odds', () => {
    const r = parsePrizePicks(read('prizepicks-tjjerome-1.json'));
    expectSane(r);
    expect(r.slate.games).toHaveLength(15);
    expect(r.slate.lines.length).toBe(216);
    expect(r.slate.games.every((g) => g.sport === 'mlb' && !g.homeKnown)).toBe(true);
    expect(r.slate.lines.some((l) => l.overOdds !== undefined || l.underOdds !== undefined)).toBe(false);
    const ryan = r.slate.lines.find((l) => l.player === 'Joe Ryan' && l.stat === 'strikeouts');
    expect(ryan).toMatchObject({ line: 7, team: 'Minnesota Twins' });
  });

  it('PrizePicks, newer format (NFL 2026): standard lines only, combos and splits skipped, the rest counted', () => {
    const r = parsePrizePicks(read('prizepicks-Czar68-1.json'));
    expectSane(r);
    expect(r.slate.games).toEqual([
      expect.objectContaining({ id: 'pp_128201', homeTeam: 'Seattle Seahawks', awayTeam: 'Los Angeles Rams' }),
    ]);
    // 599 projections, most of them goblin/demon alternates: one standard line per player and stat.
    expect(r.slate.lines.length).toBe(102);
    expect(r.slate.lines.filter((l) => l.stat === 'longest_reception')).toHaveLength(13);
    expect(r.slate.lines.filter((l) => l.stat === 'targets')).toHaveLength(11);
    // Splits ("Yards on First Reception") are left out on purpose; rare whole-game stats are counted.
    expect(r.unmapped['nfl:Yards on First Reception']).toBeUndefined();
    expect(r.unmapped['nfl:Punts']).toBe(2);
    expect(r.slate.lines.find((l) => l.player === 'Sam Darnold' && l.stat === 'passing_yards')?.line).toBe(235.5);
  });

  it('PrizePicks, a league outside the catalog (Rainbow Six) gives nothing', () => {
    const r = parsePrizePicks(read('prizepicks-chuydabol-1.json'));
    expect(r.slate.lines).toHaveLength(0);
    expect(r.skipped).toBe(0);
  });

  it('Underdog (many sports, 2023): matchups from titles, no american_price so no odds', () => {
    const r = parseUnderdog(read('underdog-tjjerome-1.json'));
    expectSane(r);
    expect(r.slate.games.length).toBe(24);
    expect(r.slate.lines.length).toBeGreaterThan(300);
    expect(new Set(r.slate.games.map((g) => g.sport))).toEqual(new Set(['mlb', 'nba', 'nhl', 'soccer']));
    expect(r.slate.lines.some((l) => l.overOdds !== undefined)).toBe(false);
    const perez = r.slate.lines.find((l) => l.player === 'Martín Pérez' && l.stat === 'strikeouts');
    expect(perez).toMatchObject({ line: 4, team: 'Texas Rangers', gameId: 'ud_30336' });
    expect(r.slate.games.find((g) => g.id === 'ud_30336')).toMatchObject({
      homeTeam: 'Pittsburgh Pirates',
      awayTeam: 'Texas Rangers',
    });
  });

  it('PrizePicks in-game board (WNBA 2025): live values from its box scores, suspended lines left out', () => {
    const r = parsePrizePicks(read('prizepicks-35eternal-wnba-live-2025-06-15.json'));
    expectSane(r);
    expect(r.slate.games).toEqual([
      expect.objectContaining({
        id: 'pp_73172',
        sport: 'wnba',
        homeTeam: 'Washington Mystics',
        awayTeam: 'Atlanta Dream',
        state: 'live',
        clock: 'Q2 0:00',
        score: { home: 34, away: 45 },
      }),
      expect.objectContaining({
        id: 'pp_73173',
        homeTeam: 'Las Vegas Aces',
        awayTeam: 'Phoenix Mercury',
        state: 'pre',
      }),
    ]);
    // 48 standard lines: 2 combos and the 3 suspended ones are not on offer.
    expect(r.slate.lines).toHaveLength(43);
    const live = r.slate.lines.filter((l) => l.liveValue !== undefined);
    expect(live.map((l) => [l.player, l.stat, l.line, l.liveValue])).toEqual([
      ['Allisha Gray', 'rebounds', 5.5, 3],
      ['Allisha Gray', 'points', 28.5, 19],
      ['Brittney Griner', 'rebounds', 3.5, 1],
      ['Brionna Jones', 'points', 7.5, 2],
      ['Kiki Iriafen', 'points', 11.5, 6],
      ['Sonia Citron', 'points', 14.5, 8],
    ]);
    // Suspended in the recording: Sykes', Howard's and Griner's points.
    const points = (player: string) => r.slate.lines.find((l) => l.player === player && l.stat === 'points');
    expect([points('Brittney Sykes'), points('Rhyne Howard'), points('Brittney Griner')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    // The pre-game game's lines carry none.
    expect(live.every((l) => l.gameId === 'pp_73172')).toBe(true);
  });
});
