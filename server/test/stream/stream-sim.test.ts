/**
 * The stream on the seeded simulator: the feed replays the simulated day, a sharp key's stream
 * starts with the board as it stands, and each poll cycle after that arrives as changes that,
 * applied to the snapshot, give the board the REST scan answers.
 */
import type { AddressInfo } from 'node:net';
import type { ScanRow } from '@propsfeed/contract';
import { SimWorld } from '@propsfeed/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfill } from '../../src/feed/backfill';
import { FeedCore } from '../../src/feed/core';
import { SIM_NOW, SIM_SEED } from '../board-routes/simSetup';
import { buildTestApp, type TestApp } from '../helpers/app';
import { pollSim } from '../helpers/simFeed';
import { openStream } from './sseClient';

const MIN = 60_000;
const SILENT = { info() {}, warn() {}, error() {} };
let now = SIM_NOW;
let t: TestApp;
let core: FeedCore;
const world = new SimWorld(SIM_SEED);

const poll = (at: number) => pollSim(core, world, at);

beforeAll(async () => {
  core = new FeedCore({ books: ['prizepicks', 'underdog'], logger: SILENT, retainMs: 30 * MIN, now: () => now });
  await backfill({
    core,
    world,
    now: SIM_NOW,
    fromMs: SIM_NOW - 20 * MIN,
    coarseStepMs: 10 * MIN,
    fineStepMs: 5 * MIN,
  });
  t = await buildTestApp({ source: core, now: () => now });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

const rowKey = (r: Pick<ScanRow, 'eventId' | 'player' | 'stat'>) => `${r.eventId}|${r.player}|${r.stat}`;

describe('the stream on the seeded simulator', () => {
  it('starts with the board as it stands; its changes applied to the snapshot give the board the scan answers', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const stream = await openStream(`http://127.0.0.1:${port}`, '/api/v1/stream?sport=nba', {
      authorization: `Bearer ${t.keys.sharp}`,
    });
    const [snapshot] = await stream.waitFor(1, 'snapshot');
    if (snapshot?.data.type !== 'snapshot') throw new Error('no snapshot');
    const scan = (await t.get('/api/v1/props?sport=nba&limit=5000', t.keys.sharp)).json() as { rows: ScanRow[] };
    expect(snapshot.data.rows.map(rowKey).sort()).toEqual(scan.rows.map(rowKey).sort());
    expect(snapshot.data.rows.length).toBeGreaterThan(50);

    const board = new Map(snapshot.data.rows.map((r) => [rowKey(r), r]));
    for (let i = 1; i <= 6; i++) {
      now = SIM_NOW + i * 30_000;
      await poll(now);
    }
    const after = (await t.get('/api/v1/props?sport=nba&limit=5000', t.keys.sharp)).json() as { rows: ScanRow[] };
    const lines = (rows: Iterable<ScanRow>) =>
      [...rows].map((r) => `${rowKey(r)}|${r.line}|${r.overOdds ?? ''}|${r.underOdds ?? ''}|${r.gameState}`).sort();
    const applied = () => {
      const rows = new Map(board);
      for (const { data } of stream.events.slice(1)) {
        if (data.type === 'prop') rows.set(rowKey(data.row), data.row);
        else if (data.type === 'prop.removed') rows.delete(rowKey(data));
      }
      return lines(rows.values());
    };
    // The last change's frames may still be on their way.
    const until = Date.now() + 5_000;
    while (applied().join() !== lines(after.rows).join() && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(stream.events.slice(1).filter((e) => e.data.type === 'prop').length).toBeGreaterThan(0);
    expect(applied()).toEqual(lines(after.rows));
    stream.close();
  });
});
