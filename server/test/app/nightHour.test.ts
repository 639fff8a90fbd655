/**
 * A fresh `props serve` on the seeded simulator at 05:38 UTC, when the night's NBA games are
 * over (the simulated clock set by PROPS_SIM_CLOCK): a game
 * that started hours ago reads as final and comes after the open games, the scan opens with a
 * live or pre-game row, the scan and the player route agree on each player's props, and no
 * answer about the simulated players names a host but loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GamesResponseSchema,
  PlayerPropsResponseSchema,
  ScanResponseSchema,
  type ScanRow,
  StreamSnapshotEventSchema,
} from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thirdPartyHosts } from '../helpers/hosts';
import { type ServeChild, startServeChild } from '../helpers/serveChild';

const CLOCK = '2026-11-22T05:38:00.000Z';
const NOW = Date.parse(CLOCK);
const HOUR = 3_600_000;

const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-night-'));
let server: ServeChild;
let keys: ReturnType<ServeChild['demoKeys']>;
/** Every answer read, for the walk for hosts at the end. */
const answers: unknown[] = [];

beforeAll(async () => {
  server = await startServeChild({ PROPS_DATA_DIR: dataDir, PROPS_SIM_SEED: '20261122' }, true, { clockAt: CLOCK });
  keys = server.demoKeys();
}, 120_000);
afterAll(async () => {
  await server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

async function get(path: string, tier: 'free' | 'pro' | 'sharp' = 'sharp'): Promise<unknown> {
  const res = await fetch(`${server.address}${path}`, { headers: { authorization: `Bearer ${keys[tier]}` } });
  const body = await res.json();
  expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
  answers.push(body);
  return body;
}

const key = (r: Pick<ScanRow, 'eventId' | 'stat'>) => `${r.eventId} ${r.stat}`;

describe(`props serve at ${CLOCK} (seed 20261122)`, () => {
  it('lists a game that started hours ago as final, after every open game; live first, then pre by start', async () => {
    const { games } = GamesResponseSchema.parse(await get('/api/v1/games?sport=nba'));
    const startedHoursAgo = games.filter((g) => NOW - Date.parse(g.startTime) >= 2.5 * HOUR);
    expect(startedHoursAgo.length).toBeGreaterThan(0);
    for (const g of startedHoursAgo) expect(g, g.id).toMatchObject({ state: 'final', live: false });
    const order = games.map((g) => g.state);
    expect(order).toEqual(
      [...order].sort((a, b) => ['live', 'pre', 'final'].indexOf(a) - ['live', 'pre', 'final'].indexOf(b)),
    );
    const pre = games.filter((g) => g.state === 'pre').map((g) => g.startTime);
    expect(pre).toEqual([...pre].sort());
    for (const g of games) expect(g.live, g.id).toBe(g.state === 'live');
    for (const g of games.filter((x) => x.state === 'live')) expect(g.clock, g.id).toMatch(/^Q[1-4] \d{1,2}:\d{2}$/);
    // Behind ?state=final, the finished games alone.
    const final = GamesResponseSchema.parse(await get('/api/v1/games?sport=nba&state=final'));
    expect(final.games.map((g) => g.id)).toEqual(games.filter((g) => g.state === 'final').map((g) => g.id));
  });

  it('opens the scan with a live or pre-game row, and leaves the finished games out unless asked', async () => {
    const scan = ScanResponseSchema.parse(await get('/api/v1/props?sport=nba&limit=5000'));
    expect(scan.rows.length).toBeGreaterThan(100);
    expect(['live', 'pre']).toContain(scan.rows[0]?.gameState);
    expect(scan.rows.filter((r) => r.gameState === 'final')).toEqual([]);
    const final = ScanResponseSchema.parse(await get('/api/v1/props?sport=nba&limit=5000&state=final'));
    expect(final.rows.length).toBeGreaterThan(0);
    expect(new Set(final.rows.map((r) => r.gameState))).toEqual(new Set(['final']));
    // The free tier (its board of 10 minutes ago, no live lines) opens with a pre-game row too.
    const free = ScanResponseSchema.parse(await get('/api/v1/props?sport=nba', 'free'));
    expect(free.delayed).toBe(true);
    expect(free.rows[0]?.gameState).toBe('pre');
  });

  it("agrees with the player route on each player's current props, the scan's first player first", async () => {
    const scan = ScanResponseSchema.parse(await get('/api/v1/props?sport=nba&limit=5000'));
    const byPlayer = new Map<string, string[]>();
    for (const r of scan.rows) byPlayer.set(r.player, [...(byPlayer.get(r.player) ?? []), key(r)]);
    const finals = ScanResponseSchema.parse(await get('/api/v1/props?sport=nba&limit=5000&state=final')).rows;
    // The scan's first players, and players of a finished game only (found by neither route by default).
    const names = [...byPlayer.keys()].slice(0, 12);
    const finishedOnly = [...new Set(finals.map((r) => r.player))].filter((p) => !byPlayer.has(p)).slice(0, 3);
    expect(finishedOnly.length).toBeGreaterThan(0);
    for (const name of [...names, ...finishedOnly]) {
      const answer = PlayerPropsResponseSchema.parse(
        await get(`/api/v1/props/player?sport=nba&name=${encodeURIComponent(name)}`),
      );
      expect(answer.rows.map(key).sort(), name).toEqual([...(byPlayer.get(name) ?? [])].sort());
      expect(answer.count, name).toBe(byPlayer.get(name)?.length ?? 0);
    }
    // Asked for finished games, both routes give a finished game's player his final props.
    const [player] = finishedOnly as [string];
    const final = PlayerPropsResponseSchema.parse(
      await get(`/api/v1/props/player?sport=nba&state=final&name=${encodeURIComponent(player)}`),
    );
    expect(final.rows.map(key).sort()).toEqual(
      finals
        .filter((r) => r.player === player)
        .map(key)
        .sort(),
    );
  });

  it('names no host but loopback in any answer about the simulated players, the stream’s snapshot included', async () => {
    for (const sport of ['nba', 'nfl', 'lol']) await get(`/api/v1/props?sport=${sport}&limit=5000&state=all`, 'sharp');
    await get('/api/v1/props/edges?sport=nba&state=all');
    await get('/api/v1/props/movement?sport=nba&state=all');
    const games = GamesResponseSchema.parse(await get('/api/v1/games?sport=nba&state=all'));
    await get(`/api/v1/games/${games.games[0]?.id}/props`);
    // The stream's first event: the snapshot of the board.
    const controller = new AbortController();
    const res = await fetch(`${server.address}/api/v1/stream?sport=nba`, {
      headers: { authorization: `Bearer ${keys.sharp}` },
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const frame = /^data: (.*)\n\n/m;
    while (!frame.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
    const data = frame.exec(text)?.[1] ?? 'null';
    const snapshot = StreamSnapshotEventSchema.parse(JSON.parse(data));
    expect(snapshot.games.some((g) => g.state === 'final')).toBe(true);
    answers.push(snapshot);
    expect(Object.fromEntries(thirdPartyHosts(answers))).toEqual({});
    expect(answers.length).toBeGreaterThan(10);
  });
});
