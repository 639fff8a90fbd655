/**
 * Starting a worker thread the same way from the .ts sources (tests, `pnpm dev`) and from the
 * tsup bundle: the bundle has each worker as an entry of its own beside its chunks
 * (tsup.config.ts); from sources a small eval worker registers tsx and imports the source.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** tsx's ESM API module (its package's `./esm/api` import export): where running from sources resolves tsx. */
function tsxEsmApi(): string {
  const pkgFile = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as {
    exports: { './esm/api': { import: { default: string } } };
  };
  return join(dirname(pkgFile), pkg.exports['./esm/api'].import.default);
}

/**
 * Starts a worker thread from the module at `from` (its `import.meta.url`): from a .ts file,
 * the source `files.source` beside it, through tsx (registered by its API: a worker's
 * `--import` does not load hooks on Node 20); from the bundle, its entry `files.bundled`
 * beside the chunk running this (tsup.config.ts names it). `name` is the thread's name where
 * Node names threads (24 does; `pnpm bench` tells the ingest worker's CPU by it).
 */
export function startWorker(
  from: string,
  files: { source: string; bundled: string },
  workerData: unknown,
  name: string,
): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(files.bundled, from), { workerData, name });
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const source = new URL(files.source, from).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, workerData, execArgv: [], name });
}
