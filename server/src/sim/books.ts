/**
 * The simulated books where a real upstream would be: in a thread of their own (sim/worker.ts),
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

/** tsx's ESM API module (its package's `./esm/api` import export): where running from sources resolves tsx. */
function tsxEsmApi(): string {
  const pkgFile = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as {
    exports: { './esm/api': { import: { default: string } } };
  };
  return join(dirname(pkgFile), pkg.exports['./esm/api'].import.default);
}

/**
 * The worker: the bundle's own entry (tsup.config.ts `sim-books`) beside the chunk running
 * this; from sources, a worker that registers tsx (through its API: a worker's `--import` does
 * not load hooks on Node 20) and imports the .ts source beside this file.
 */
function startWorker(data: SimBooksData): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./sim-books.js', import.meta.url), { workerData: data });
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const source = new URL('./worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, workerData: data, execArgv: [] });
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
