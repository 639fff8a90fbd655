/**
 * The simulated books where a real upstream would be: in a thread of their own (sim/worker.ts),
 * started and stopped with the feed, so rendering their JSON never holds the API's event loop.
 * A worker thread ends with its process, whatever ends it (a signal, a crash): no orphan.
 */
import type { Worker } from 'node:worker_threads';
import { startWorker as startThread } from '../threads/start';
import type { SimServer } from './server';
import type { SimBooksData } from './worker';

/** The worker: the bundle's own entry (tsup.config.ts `sim-books`), or the .ts source beside this file. */
function startWorker(data: SimBooksData): Worker {
  return startThread(import.meta.url, { source: './worker.ts', bundled: './sim-books.js' }, data, 'sim books');
}

/**
 * Starts the simulated books of world `seed` at `now()`'s time, running on in real time (the
 * worker's clock keeps `now`'s lead over the machine's); resolves once they listen.
 */
export function startSimBooks(opts: {
  seed: number;
  now: () => number;
  /** Where a failure of the books' thread is told (the feed's logger). */
  logger: { error(o: object, msg?: string): void };
  host?: string;
}): Promise<SimServer> {
  const worker = startWorker({ seed: opts.seed, offsetMs: opts.now() - Date.now(), host: opts.host ?? '127.0.0.1' });
  let closing = false;
  return new Promise<SimServer>((resolve, reject) => {
    worker.once('message', (urls: { prizepicksUrl: string; underdogUrl: string }) => {
      resolve({
        ...urls,
        close: () => {
          closing = true;
          const exited = new Promise<void>((done) => worker.once('exit', () => done()));
          worker.postMessage('close');
          // A worker that does not close within a second is ended.
          const timer = setTimeout(() => void worker.terminate(), 1_000);
          return exited.finally(() => clearTimeout(timer));
        },
      });
    });
    worker.once('error', (err) => {
      reject(err);
      opts.logger.error({ err }, 'the simulated books failed; their polls fail until the server restarts');
    });
    worker.once('exit', (code) => {
      if (!closing) {
        reject(new Error(`the simulated books' thread exited with code ${code}`));
        opts.logger.error({ code }, "the simulated books' thread exited");
      }
    });
  });
}
