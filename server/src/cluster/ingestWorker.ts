/**
 * The ingest worker's own thread (started by ingestThread.ts): the whole of `startIngest`
 * (backfill, polling, merge, the writes of line history, locks and game logs) on its own
 * connection to the store, and its boards sent to the API thread as a change log
 * (board/changes.ts, sent by feed/follow.ts) over this thread's port, with its status, log lines and backfill progress.
 * With `stream`, each board's stream events go with it, rendered here once, and are written
 * to the stored event log here (stream/renderer.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { BoardChange } from '../board/changes';
import type { RunningFeed } from '../board/types';
import { startIngest } from '../feed';
import { followChanges } from '../feed/follow';
import type { FeedLogger } from '../feed/logger';
import { createGameLogStore } from '../history/gameLogs';
import { EntryBook, PropOdds } from '../odds';
import { servedCoefficients } from '../odds/coefficients';
import { GameLogIndex, gameLogCount } from '../stats/gameLogIndex';
import { type Db, openDb } from '../store/db';
import { StreamEncoder } from '../stream/encode';
import { StreamLog } from '../stream/log';
import { StreamRenderer } from '../stream/renderer';
import { ViewRegistry } from '../views';
import type { IngestMessage, IngestWorkerData } from './ingestProtocol';

const port = parentPort;
if (!port) throw new Error('cluster/ingestWorker.ts runs as a worker thread (cluster/ingestThread.ts starts it)');
const data = workerData as IngestWorkerData;
const now = () => Date.now() + data.offsetMs;

function post(message: IngestMessage): void {
  port?.postMessage(message);
}

/** Log objects cross as structured clones (an Error stays one); what cannot be cloned crosses as JSON. */
function postLog(level: 'info' | 'warn' | 'error', obj: object, msg?: string): void {
  try {
    post({ type: 'log', level, obj, ...(msg !== undefined ? { msg } : {}) });
  } catch {
    const plain = JSON.parse(
      JSON.stringify(obj, (_k, v) => (v instanceof Error ? { message: v.message, stack: v.stack } : v)),
    );
    post({ type: 'log', level, obj: plain, ...(msg !== undefined ? { msg } : {}) });
  }
}

const logger: FeedLogger = {
  info: (obj, msg) => postLog('info', obj, msg),
  warn: (obj, msg) => postLog('warn', obj, msg),
  error: (obj, msg) => postLog('error', obj, msg),
};

let closing = false;
let stop: (() => Promise<void>) | undefined;
port.on('message', (message) => {
  if (message !== 'close' || closing) return;
  closing = true;
  // Asked to close while starting: it closes once started (the API thread ends it if that is too long).
  if (stop) void stop();
});

let db: Db | undefined;
let feed: RunningFeed;
let renderer: StreamRenderer | undefined;
let gameLogIndex: GameLogIndex | undefined;
let streamLog: StreamLog | undefined;
try {
  // Its own connection to the store the API thread opened (migrated already): SQLite in WAL
  // mode takes one writer beside the API's, and this one writes all day, so it checkpoints
  // off its event loop like the API thread's.
  db = await openDb({ ...data.store, checkpointInBackground: true });
  feed = await startIngest({
    upstream: data.upstream,
    db,
    now,
    logger,
    resume: data.resume,
    versionsAfter: data.versionsAfter,
    ...(data.pollMs !== undefined ? { pollMs: data.pollMs } : {}),
    ...(data.reportBackfill ? { onBackfill: (progress) => post({ type: 'backfill', progress }) } : {}),
  });
  // Subscribed before the change log's follower below, so each board's events are rendered when it is sent.
  if (data.stream) {
    if (data.stream.log)
      streamLog = new StreamLog(db, {
        ...data.stream.log,
        writes: () => true,
        now,
        onError: (err) => logger.error({ err }, 'stream event log failed'),
      });
    renderer = new StreamRenderer(feed, streamLog);
  }
} catch (err) {
  await db?.close().catch(() => {});
  post({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  port.close();
  process.exit(1);
}

/** Changes held while the renderer's views load (the API thread has the backlog meanwhile). */
let held: BoardChange[] | undefined;
const sendChange = (change: BoardChange) => {
  const events = renderer?.takeRendered(change.version);
  post({ type: 'change', change, ...(events ? { events } : {}) });
};
const follower = followChanges(
  feed,
  {
    change: (change) => (held ? held.push(change) : sendChange(change)),
    status: (status) => post({ type: 'status', status }),
  },
  { afterMs: data.afterMs, fromMs: now() - data.retentionMs },
);
post({ type: 'started' });
if (renderer && data.stream) {
  // The views the events are rendered from, as the API thread builds them (app.ts): the
  // game-log index gives the projections and the chances' inputs, the tables the edges. It
  // loads after 'started', beside the API thread's own index, not before it; the boards that
  // come meanwhile wait here, then go with their events.
  held = [];
  const { stream } = data;
  const onError = (err: unknown) => logger.error({ err }, 'game log index failed');
  const index = new GameLogIndex(createGameLogStore(db as Db), gameLogCount(db as Db), onError);
  gameLogIndex = index;
  const rendering = renderer;
  void index
    .start()
    .then(() => {
      const coefficients = servedCoefficients(data.upstream.kind === 'books');
      const odds = new PropOdds(new EntryBook(stream.entryTables), index, coefficients);
      rendering.start(new StreamEncoder(new ViewRegistry(feed, index, odds)));
    })
    .catch((err: unknown) => {
      // Without the worker's rendering the API thread renders the events, and the log is not written.
      logger.error({ err }, 'the stream events cannot be rendered in the ingest worker');
      rendering.stop();
      renderer = undefined;
    })
    .finally(() => {
      const waiting = held ?? [];
      held = undefined;
      if (!closing) for (const change of waiting) sendChange(change);
    });
}
// Book health changes without a board (attempts, errors): sent when it does.
const statusTimer = setInterval(() => follower.checkStatus(), data.statusEveryMs);

stop = async () => {
  clearInterval(statusTimer);
  follower.stop();
  renderer?.stop();
  gameLogIndex?.stop();
  try {
    await feed.stop();
    await streamLog?.close();
  } finally {
    await db?.close();
    port.close();
  }
};
if (closing) await stop();
