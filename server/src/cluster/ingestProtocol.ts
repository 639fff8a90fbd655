/** What the ingest worker (ingestWorker.ts) and the API thread (ingestThread.ts) say to each other. */
import type { Book } from '@propsfeed/contract';
import type { BackfillProgress } from '../feed/backfill';
import type { BoardChange, FeedStatus } from '../feed/changes';

export interface IngestWorkerData {
  /** The books, or the simulated world by its seed (a worker builds its own). */
  upstream: { kind: 'books'; books: readonly Book[]; urls: Record<Book, string> } | { kind: 'simulator'; seed: number };
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
}

/** Worker → API thread, in order. The API thread sends only `'close'`. */
export type IngestMessage =
  | { type: 'change'; change: BoardChange }
  | { type: 'status'; status: FeedStatus }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; obj: object; msg?: string }
  | { type: 'backfill'; progress: BackfillProgress }
  /** Ingest runs and its backlog was sent. */
  | { type: 'started' }
  /** Ingest failed to start (the error's stack). */
  | { type: 'failed'; error: string };
