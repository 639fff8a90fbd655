/**
 * Ingest in its worker thread (cluster/ingestThread.ts): the API thread's board is the
 * worker's, rebuilt by the change log's apply code; a worker that dies is said loudly and
 * restarted, resuming from the store. The books are the simulator's, served on loopback from
 * this thread at a frozen clock, so every poll sees the same lines.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { type SimServer, SimWorld, startSimServer } from '@propsfeed/sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Board } from '../../src/board/types';
import { type IngestThread, startIngestThread } from '../../src/cluster/ingestThread';
import { BoardReplica } from '../../src/cluster/replica';
import { startIngest, type Upstream } from '../../src/feed';
import { followChanges } from '../../src/feed/follow';
import type { FeedLogger } from '../../src/feed/logger';
import { type Db, openDb } from '../../src/store/db';

const AT = Date.parse('2026-11-22T01:30:00Z');
const MIN = 60_000;

function capture(): FeedLogger & { lines: { level: string; msg: string | undefined; obj: object }[] } {
  const lines: { level: string; msg: string | undefined; obj: object }[] = [];
  return {
    lines,
    info: (obj, msg) => lines.push({ level: 'info', msg, obj }),
    warn: (obj, msg) => lines.push({ level: 'warn', msg, obj }),
    error: (obj, msg) => lines.push({ level: 'error', msg, obj }),
  };
}

describe('ingest in a worker thread', () => {
  let dir: string;
  let db: Db;
  let sim: SimServer;
  let upstream: Upstream;
  const threads: IngestThread[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'propsfeed-ingest-thread-'));
    // The API thread opens (and migrates) the store before the worker opens its own connection.
    db = await openDb({ dataDir: dir });
    sim = await startSimServer(new SimWorld(7), () => AT);
    upstream = {
      kind: 'books',
      books: ['prizepicks', 'underdog'],
      urls: { prizepicks: sim.prizepicksUrl, underdog: sim.underdogUrl },
    };
  });
  afterAll(async () => {
    for (const t of threads) await t.stop();
    await sim?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("rebuilds, through the change log, exactly the core's boards, versions and all", async () => {
    // The worker's code path in this thread: startIngest, followChanges, a structured clone
    // (what the MessagePort does), BoardReplica.
    const now = () => AT;
    const feed = await startIngest({ upstream, db: await openDb({ dataDir: dir }), now, pollMs: 3_600_000 });
    const replica = new BoardReplica({ now });
    const follower = followChanges(
      feed,
      {
        change: (c) => expect(replica.apply(structuredClone(c))).toBe(true),
        status: (s) => replica.setStatus(structuredClone(s)),
      },
      { afterMs: 0, fromMs: now() - 15 * MIN },
    );
    await vi.waitFor(() => expect(feed.ready()).toBe(true), { timeout: 30_000 });
    // The core's current board is told to subscribers once its writes are done.
    await vi.waitFor(() => expect(replica.current().version).toBe(feed.current().version), { timeout: 30_000 });
    const core: Board = feed.current();
    const applied = replica.current();
    expect(applied.games.length).toBeGreaterThan(10);
    expect(applied.fetchedAt).toBe(core.fetchedAt);
    expect(applied.games).toStrictEqual(core.games);
    expect([...applied.gameById.keys()]).toEqual([...core.gameById.keys()]);
    expect(replica.ready()).toBe(true);
    expect(replica.health()).toEqual(feed.health());
    follower.stop();
    await feed.stop();
  }, 60_000);

  it('serves on the API thread the boards the worker makes, with its status and log lines', async () => {
    const logger = capture();
    let boardClock = AT;
    const thread = await startIngestThread({ upstream, store: { dataDir: dir }, now: () => boardClock, logger });
    threads.push(thread);
    await vi.waitFor(() => expect(thread.ready()).toBe(true), { timeout: 30_000 });
    const board = thread.current();
    expect(board.games.length).toBeGreaterThan(10);
    // The worker's own numbers: its merger counts from its board clock at start (boards
    // restored from the store's history, then the polled ones).
    expect(board.version).toBeGreaterThan(AT);
    expect(board.version).toBeLessThan(AT + 60_000);
    expect(thread.health().map((h) => [h.source, h.errorCount])).toEqual([
      ['prizepicks', 0],
      ['underdog', 0],
    ]);
    expect(logger.lines.some((l) => l.msg === 'feed polling')).toBe(true);
    boardClock = AT + MIN;
    expect(thread.at(AT + MIN).version).toBe(board.version);
    await thread.stop();
  }, 60_000);

  it('restarts a worker that dies, resuming from the store, and says so loudly', async () => {
    const logger = capture();
    const workers: Worker[] = [];
    const thread = await startIngestThread({
      upstream,
      store: { dataDir: dir },
      now: () => AT,
      logger,
      restart: { minMs: 50, maxMs: 200 },
      onWorker: (w) => workers.push(w),
    });
    threads.push(thread);
    await vi.waitFor(() => expect(thread.current().version).toBeGreaterThan(0), { timeout: 30_000 });
    const before = thread.current();
    await workers[0]?.terminate();
    await vi.waitFor(() => expect(thread.restarts()).toBe(1), { timeout: 10_000 });
    const died = logger.lines.find((l) => l.level === 'error');
    expect(died?.msg).toBe('the ingest worker died: the board is not updating until it restarts');
    expect(died?.obj).toMatchObject({ restartInMs: 50, board: before.version });
    // The new worker's first board: a keyframe, numbered above every board before it.
    await vi.waitFor(() => expect(thread.current().version).toBeGreaterThan(before.version), { timeout: 30_000 });
    expect(thread.current().games.map((g) => g.id)).toEqual(before.games.map((g) => g.id));
    expect(logger.lines.some((l) => l.msg === 'ingest worker restarted; the board is updating again')).toBe(true);
    await thread.stop();
    expect(workers).toHaveLength(2);
  }, 60_000);

  it('rejects with the cause when ingest cannot start', async () => {
    const file = join(dir, 'not-a-dir');
    writeFileSync(file, '');
    await expect(startIngestThread({ upstream, store: { dataDir: file } })).rejects.toThrow(
      /the ingest worker exited with code 1: .*EEXIST|ENOTDIR/,
    );
  }, 30_000);
});
