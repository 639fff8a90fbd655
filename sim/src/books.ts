/**
 * The simulated books where a real upstream would be: in a thread of their own (worker.ts),
 * started and stopped with the feed, so rendering their JSON never holds the API's event loop.
 * A worker thread ends with its process, whatever ends it (a signal, a crash): no orphan.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SimServer } from './server';
import type { SimBooksData } from './worker';

/** tsx's ESM API (the `import` target of its `./esm/api` export), resolved from here. */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api']?.import.default ?? '')).href;
}

/**
 * The books' thread. Bundled (the server's tsup.config.ts), worker.ts is the entry `sim-books.js`
 * beside the chunk running this; from the .ts sources a small eval worker registers tsx by its
 * API and imports worker.ts (a worker's `--import` loads no hooks on Node 20). The thread is
 * named where Node names threads.
 */
function startWorker(workerData: SimBooksData): Worker {
  const name = 'sim books';
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./sim-books.js', import.meta.url), { workerData, name });
  const tsx = tsxEsmApi();
  const worker = new URL('./worker.ts', import.meta.url).href;
  // An eval worker runs a script (no top-level await).
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => register()).then(() => import(${JSON.stringify(worker)}));`;
  return new Worker(boot, { eval: true, workerData, execArgv: [], name });
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
