/**
 * Polls each book on its own loop: every part of the book (PrizePicks: one request per
 * league) each cycle, then one commit. Jittered interval; exponential backoff while a book fails.
 */
import type { Book } from '@propsfeed/contract';
import type { BookAdapter } from '../books';
import { browserHeaders, fetchJson } from '../books/http';
import { PayloadError } from '../books/wire';
import type { FeedCore } from './core';

export interface PollerOptions {
  core: FeedCore;
  books: { adapter: BookAdapter; baseUrl: string }[];
  pollMs: number;
  timeoutMs: number;
  /** Longest wait between attempts while a book keeps failing. */
  maxBackoffMs: number;
  now: () => number;
  fetch?: typeof fetch;
  random?: () => number;
  /** Aborts requests in flight (stopping). */
  signal?: AbortSignal;
}

/** Wait before the next attempt: the interval ±10 %, doubled per consecutive failure up to the cap. */
export function nextDelay(pollMs: number, consecutiveFailures: number, maxBackoffMs: number, random: number): number {
  const base = consecutiveFailures === 0 ? pollMs : Math.min(maxBackoffMs, pollMs * 2 ** consecutiveFailures);
  return Math.round(base * (0.9 + random * 0.2));
}

/** One cycle of one book: fetch and parse each part, then commit. Never throws. */
export async function pollOnce(opts: PollerOptions, adapter: BookAdapter, baseUrl: string): Promise<void> {
  const { core } = opts;
  const headers = browserHeaders(adapter.origin);
  for (const { part, url } of adapter.requests(baseUrl)) {
    const res = await fetchJson(url, {
      timeoutMs: opts.timeoutMs,
      headers,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (opts.signal?.aborted) return;
    if (!res.ok) {
      core.failPart(adapter.book, part, res);
      continue;
    }
    try {
      core.applyPart(adapter.book, part, adapter.parse(res.body), opts.now());
    } catch (err) {
      const message = err instanceof PayloadError ? err.message : `parser error: ${String(err)}`;
      core.failPart(adapter.book, part, { kind: 'parse', message });
    }
  }
  await core.commit(adapter.book, opts.now());
}

export interface Poller {
  stop(): Promise<void>;
}

export function startPolling(opts: PollerOptions): Poller {
  let stopped = false;
  const abort = new AbortController();
  const polling = { ...opts, signal: abort.signal };
  const timers = new Set<NodeJS.Timeout>();
  const wakers = new Set<() => void>();
  const random = opts.random ?? Math.random;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        timers.delete(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timers.add(timer);
      wakers.add(wake);
    });

  const loop = async (book: Book, adapter: BookAdapter, baseUrl: string) => {
    while (!stopped) {
      await pollOnce(polling, adapter, baseUrl);
      if (stopped) break;
      await sleep(nextDelay(opts.pollMs, opts.core.consecutiveFailures(book), opts.maxBackoffMs, random()));
    }
  };
  const loops = opts.books.map(({ adapter, baseUrl }) => loop(adapter.book, adapter, baseUrl));

  return {
    async stop() {
      stopped = true;
      abort.abort();
      for (const wake of [...wakers]) wake();
      await Promise.all(loops);
    },
  };
}
