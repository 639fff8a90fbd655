/** What the ingest worker (ingestWorker.ts) and the API thread (ingestThread.ts) say to each other. */
import type { EntryTable } from '@propsfeed/contract';
import type { BoardChange } from '../board/changes';
import type { Upstream } from '../feed';
import type { BackfillProgress } from '../feed/backfill';
import type { FeedStatus } from '../feed/follow';
import type { RenderedChange } from '../stream/rendered';

export interface IngestWorkerData {
  /** The books, or the simulated world by its seed (a worker builds its own). */
  upstream: Upstream;
  store: { databaseUrl?: string | undefined; dataDir: string };
  /** The board clock's lead over the machine's (PROPS_SIM_CLOCK), in ms. */
  offsetMs: number;
  /** startIngest's `resume`: the store already holds the day (a restart, or another leader's). */
  resume: boolean;
  /** The API thread's newest board: the backlog sent at start is what is newer. */
  afterMs: number;
  /** Its version: this worker's boards are numbered above it. */
  versionsAfter: number;
  /** How far back the backlog reaches (the API thread's retention). */
  retentionMs: number;
  statusEveryMs: number;
  reportBackfill: boolean;
  /** startIngest's `pollMs` (tests poll fast); default its own. */
  pollMs?: number;
  /**
   * The stream's events are rendered here (stream/renderer.ts), for the API thread's streams
   * and, with `log`, the stored event log this worker then writes (PROPS_STREAM_LOG_HOURS).
   */
  stream?: {
    /** The pick'em payout tables the edges are judged on. */
    entryTables: readonly EntryTable[];
    log?: { retainMs: number; maxEvents: number };
  };
}

/** Worker → API thread, in order. The API thread sends only `'close'`. */
export type IngestMessage =
  /** A board, with its stream events rendered when the worker renders them. */
  | { type: 'change'; change: BoardChange; events?: RenderedChange }
  | { type: 'status'; status: FeedStatus }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; obj: object; msg?: string }
  | { type: 'backfill'; progress: BackfillProgress }
  /** Ingest runs and its backlog was sent. */
  | { type: 'started' }
  /** Ingest failed to start (the error's stack). */
  | { type: 'failed'; error: string };
