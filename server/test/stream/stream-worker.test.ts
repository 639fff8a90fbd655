/**
 * The stream's events rendered once, in the ingest worker (stream/renderer.ts): the API
 * thread's hub sends the worker's rendering of each change without rendering it itself, and
 * those are the very events, ids and bytes the worker wrote to the stored log, which a resume
 * from an id older than the window reads. The books are the simulator's, on loopback, their
 * clock moved on between polls so the lines move.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENTRY_TABLES } from '@propsfeed/contract';
import { type SimServer, SimWorld, startSimServer } from '@propsfeed/sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type IngestThread, startIngestThread } from '../../src/cluster/ingestThread';
import { EntryBook, PropOdds } from '../../src/odds';
import { openBoardData } from '../../src/runtime';
import { type Db, openDb } from '../../src/store/db';
import { type StreamView, streamViewOf } from '../../src/stream/encode';
import { StreamHub } from '../../src/stream/hub';
import { StreamLog } from '../../src/stream/log';
import { ViewRegistry, viewKindOf } from '../../src/views';
import type { BoardChange } from '../../src/views/boardChanges';

const AT = Date.parse('2026-11-22T01:30:00Z');
const HOUR = 3_600_000;

/** `id: N.k` and the JSON of each SSE frame. */
function framesOf(bytes: Buffer): [string, string][] {
  return [...bytes.toString('utf8').matchAll(/^id: (\S+)\ndata: (.*)\n\n/gm)].map(
    (m) => [m[1], m[2]] as [string, string],
  );
}

describe("the stream's events rendered in the ingest worker", () => {
  let dir: string;
  let db: Db;
  let sim: SimServer;
  let simNow = AT;
  let thread: IngestThread;
  let boardData: Awaited<ReturnType<typeof openBoardData>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propsfeed-stream-worker-'));
    db = await openDb({ dataDir: dir });
    sim = await startSimServer(new SimWorld(7), () => simNow);
    thread = await startIngestThread({
      upstream: {
        kind: 'books',
        books: ['prizepicks', 'underdog'],
        urls: { prizepicks: sim.prizepicksUrl, underdog: sim.underdogUrl },
      },
      store: { dataDir: dir },
      now: () => AT,
      pollMs: 300,
      stream: { entryTables: ENTRY_TABLES, log: { retainMs: 6 * HOUR, maxEvents: 1_000_000 } },
    });
    boardData = await openBoardData(db, thread, () => {});
  }, 60_000);
  afterAll(async () => {
    boardData?.stop();
    await thread?.stop();
    await sim?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends each change as the worker rendered and logged it, rendering none of it on the API thread', async () => {
    const views = new ViewRegistry(thread, boardData.gameLogs, new PropOdds(new EntryBook(), boardData.gameLogs));
    // A store reader only, as the API thread's is: the worker writes the log.
    const log = new StreamLog(db, { retainMs: 6 * HOUR, writes: () => false, now: () => AT });
    const hub = new StreamHub({ source: thread, views, now: () => AT, log, rendered: thread.renderedEvents });
    hub.start();
    const changes: BoardChange[] = [];
    hub.onChange((change) => {
      if (change !== 'gap') changes.push(change);
    });
    const edgesView: StreamView = streamViewOf({
      kind: viewKindOf(false, true, true),
      delayMs: 0,
      sports: ['nba', 'nhl'],
      stats: null,
      eventId: null,
      player: null,
      minEdge: null,
    });
    const plainView: StreamView = streamViewOf({ ...edgesView, kind: viewKindOf(false, true, false) });
    // The simulated books' clock moves on a few minutes per poll until a few changes with events came.
    const mover = setInterval(() => {
      simNow += 3 * 60_000;
    }, 300);
    try {
      await vi.waitFor(() => expect(changes.filter((c) => c.events.length > 0).length).toBeGreaterThanOrEqual(3), {
        timeout: 40_000,
        interval: 200,
      });
    } finally {
      clearInterval(mover);
    }
    hub.stop();
    const rendered = changes.filter((c) => c.events.length > 0);
    const first = rendered[0] as BoardChange;
    const last = rendered.at(-1) as BoardChange;

    const rendering = vi.spyOn(views, 'viewsOf');
    const live = new Map<StreamView, [string, string][]>();
    for (const view of [edgesView, plainView])
      live.set(
        view,
        rendered.flatMap((c) => framesOf(hub.encoder.changeBytes(c, view))),
      );
    // Every event's JSON came from the worker: the API thread's views were never asked.
    // (A count: a failure printing the boards it was called with would take minutes.)
    expect(rendering.mock.calls.length).toBe(0);
    expect(live.get(edgesView)?.length).toBeGreaterThan(10);
    // The edges rendering carries the chances; the plain one does not.
    expect(live.get(edgesView)?.some(([, json]) => json.includes('"probabilities"'))).toBe(true);
    expect(live.get(plainView)?.some(([, json]) => json.includes('"probabilities"'))).toBe(false);

    // The worker's log, once written, gives a resume the same events, ids and bytes.
    const after = { version: first.previousVersion, index: 0 };
    await vi.waitFor(async () => expect(await log.reachFrom(after, last.version)).toBe(last.version), {
      timeout: 20_000,
    });
    for (const view of [edgesView, plainView]) {
      const logged: [string, string][] = [];
      let from = after;
      while (from.version < last.version) {
        const page = await log.events(from, last.version, view, 100_000);
        for (const e of page.events) if (e.json !== undefined) logged.push([`${e.version}.${e.index}`, e.json]);
        from = page.through;
      }
      expect(logged).toEqual(live.get(view));
    }
  }, 90_000);
});
