/**
 * The simulated books where a real upstream would be: in a thread of their own (worker.ts),
 * started and stopped with the feed, so rendering their JSON never holds the API's event loop.
 * A worker thread ends with its process, whatever ends it (a signal, a crash): no orphan.
 */
import type { Worker } from 'node:worker_threads';
import type { SimServer } from './server';
import type { SimBooksData } from './worker';

/**
 * Starts a worker thread from the module at `from` (its `import.meta.url`): `files.source` beside
 * it when that is a .ts source, else the bundle's entry `files.bundled` beside the chunk running
 * it. The runner's own way of starting its threads (the server's threads/start.ts), so the
 * workaround that takes (tsx registered in an eval worker on Node 20) lives in one place.
 */
export type StartWorker = (
  from: string,
  files: { source: string; bundled: string },
  workerData: unknown,
  name: string,
) => Worker;

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
  startWorker: StartWorker;
}): Promise<SimServer> {
  const data: SimBooksData = { seed: opts.seed, offsetMs: opts.now() - Date.now(), host: opts.host ?? '127.0.0.1' };
  // worker.ts; bundled (the server's tsup.config.ts), its entry sim-books.js.
  const files = { source: './worker.ts', bundled: './sim-books.js' };
  const worker = opts.startWorker(import.meta.url, files, data, 'sim books');
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
