/**
 * Ingest in a worker thread of its own (ingestWorker.ts), so the API thread only serves: it
 * applies the worker's change log to a BoardReplica, the same apply code every replica on
 * Redis runs, and serves that board. A worker that dies is logged as an error and started
 * again, resuming from the store, after a backoff that doubles up to a bound; the board served
 * meanwhile is the last one, and the log says so.
 */
import type { Worker } from 'node:worker_threads';
import { boardSourceOf, type RunningFeed } from '../board/types';
import type { StartIngestOptions, Upstream } from '../feed';
import { type FeedLogger, SILENT_LOGGER } from '../feed/logger';
import type { RenderedChange } from '../stream/rendered';
import { startWorker } from '../threads/start';
import type { IngestMessage, IngestWorkerData } from './ingestProtocol';
import { BoardReplica, DEFAULT_RETENTION_MS } from './replica';

export interface IngestThreadOptions {
  upstream: Upstream;
  /** The store the worker opens a connection of its own to (the API thread has opened and migrated it). */
  store: { databaseUrl?: string | undefined; dataDir: string };
  /** The board's clock; the worker runs one with the same lead over the machine's. */
  now?: () => number;
  logger?: FeedLogger;
  resume?: boolean;
  onBackfill?: StartIngestOptions['onBackfill'];
  /** Boards kept for `at()` (default DEFAULT_RETENTION_MS: the free tier's delay, plus margin). */
  retentionMs?: number;
  /** How often the worker polls the books (tests); default startIngest's. */
  pollMs?: number;
  /** How often the worker checks its status (book health) for a change to send (default 1 s). */
  statusEveryMs?: number;
  /** Backoff before restarting a dead worker: from `minMs`, doubling, up to `maxMs` (defaults 1 s and 30 s). */
  restart?: { minMs?: number; maxMs?: number };
  /** Called with each worker started (tests end one to see the restart). */
  onWorker?: (worker: Worker) => void;
  /** Render the stream's events in the worker (and write their log there): IngestWorkerData.stream. */
  stream?: IngestWorkerData['stream'];
}

/** A worker that ran this long before dying restarts after the shortest backoff again. */
const HEALTHY_RUN_MS = 60_000;
/**
 * How long a closing worker has to stop ingest, write the stream log's last changes and close
 * its store before it is ended. Generous: a worker asked to close just after start may still be
 * loading its game-log index (its loop is held for about a second, several on a loaded machine).
 */
const CLOSE_TIMEOUT_MS = 10_000;

export interface IngestThread extends RunningFeed {
  /** How many times the worker died and was started again. */
  restarts(): number;
  /** The worker's rendering of the change to board `version`, while that board is being applied (StreamHubOptions.rendered). */
  renderedEvents(version: number): RenderedChange | undefined;
}

/**
 * What the API thread does with the worker's messages (all but `started` and `failed`): applies
 * its changes to `replica`, takes its status, logs its lines. `renderedEvents` is the worker's
 * rendering of the change being applied, while the replica tells its subscribers of the board.
 */
function messageHandler(
  replica: BoardReplica,
  logger: FeedLogger,
  onBackfill: IngestThreadOptions['onBackfill'],
): { handle(message: IngestMessage): void; renderedEvents(version: number): RenderedChange | undefined } {
  let applying: RenderedChange | undefined;
  const handle = (message: IngestMessage) => {
    switch (message.type) {
      case 'change':
        applying = message.events;
        try {
          // The port loses nothing and keeps order: a delta without its base is a bug, said loudly.
          if (!replica.apply(message.change))
            logger.error(
              { version: message.change.version, base: message.change.base },
              'ingest sent a delta on a board this thread does not have',
            );
        } finally {
          applying = undefined;
        }
        return;
      case 'status':
        replica.setStatus(message.status);
        return;
      case 'log':
        logger[message.level](message.obj, message.msg);
        return;
      case 'backfill':
        onBackfill?.(message.progress);
        return;
    }
  };
  return { handle, renderedEvents: (version) => (applying?.version === version ? applying : undefined) };
}

/** Asks `w` to close, and ends it when it has not within CLOSE_TIMEOUT_MS. */
async function closeWorker(w: Worker, logger: FeedLogger): Promise<void> {
  const exited = new Promise<void>((done) => w.once('exit', () => done()));
  w.postMessage('close');
  const timer = setTimeout(() => {
    logger.warn({ timeoutMs: CLOSE_TIMEOUT_MS }, 'the ingest worker did not close in time; ending it');
    void w.terminate();
  }, CLOSE_TIMEOUT_MS);
  await exited.finally(() => clearTimeout(timer));
}

/** Starts the worker and resolves once its ingest runs and its backlog is applied (rejects if ingest fails to start). */
export async function startIngestThread(opts: IngestThreadOptions): Promise<IngestThread> {
  const now = opts.now ?? Date.now;
  const logger = opts.logger ?? SILENT_LOGGER;
  const retentionMs = opts.retentionMs ?? DEFAULT_RETENTION_MS;
  const minMs = opts.restart?.minMs ?? 1_000;
  const maxMs = opts.restart?.maxMs ?? 30_000;
  const replica = new BoardReplica({
    retentionMs,
    now,
    onError: (err) => logger.error({ err }, 'a board subscriber failed'),
  });
  const { upstream } = opts;

  let worker: Worker | undefined;
  let closing = false;
  let restarts = 0;
  /** Deaths since the last worker that ran HEALTHY_RUN_MS. */
  let failures = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  const messages = messageHandler(replica, logger, opts.onBackfill);

  /** One worker: resolves once started; rejects when it fails to start or dies first. */
  const run = (resume: boolean): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const data: IngestWorkerData = {
        upstream,
        store: opts.store,
        offsetMs: now() - Date.now(),
        resume,
        afterMs: replica.current().fetchedAt,
        versionsAfter: replica.current().version,
        retentionMs,
        statusEveryMs: opts.statusEveryMs ?? 1_000,
        reportBackfill: opts.onBackfill !== undefined,
        ...(opts.stream ? { stream: opts.stream } : {}),
        ...(opts.pollMs !== undefined ? { pollMs: opts.pollMs } : {}),
      };
      const w = startWorker(
        import.meta.url,
        { source: './ingestWorker.ts', bundled: './feed-ingest.js' },
        data,
        'ingest',
      );
      worker = w;
      opts.onWorker?.(w);
      const startedAt = Date.now();
      let started = false;
      let failure: string | undefined;
      w.on('message', (message: IngestMessage) => {
        if (message.type === 'started') {
          started = true;
          resolve();
        } else if (message.type === 'failed') failure = message.error;
        else messages.handle(message);
      });
      w.on('error', (err) => {
        failure ??= err instanceof Error ? (err.stack ?? err.message) : String(err);
      });
      w.once('exit', (code) => {
        if (worker === w) worker = undefined;
        if (closing) return resolve();
        const error = new Error(`the ingest worker exited with code ${code}${failure ? `: ${failure}` : ''}`);
        if (!started) reject(error);
        else died(error, Date.now() - startedAt);
      });
    });

  const died = (error: Error, ranMs: number) => {
    failures = ranMs >= HEALTHY_RUN_MS ? 1 : failures + 1;
    const inMs = Math.min(minMs * 2 ** (failures - 1), maxMs);
    logger.error(
      { err: error, restartInMs: inMs, board: replica.current().version },
      'the ingest worker died: the board is not updating until it restarts',
    );
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (closing) return;
      restarts++;
      run(true).then(
        () => logger.info({ restarts }, 'ingest worker restarted; the board is updating again'),
        (err: Error) => died(err, 0),
      );
    }, inMs);
  };

  await run(opts.resume ?? false);

  return {
    ...boardSourceOf(replica),
    restarts: () => restarts,
    renderedEvents: (version) => messages.renderedEvents(version),
    async stop() {
      closing = true;
      clearTimeout(restartTimer);
      if (worker) await closeWorker(worker, logger);
    },
  };
}
