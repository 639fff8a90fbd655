#!/usr/bin/env node
/**
 * `props` in a clone of the repository (`pnpm -s props`, or this file linked as a bin): the
 * built bundle (cli/dist, which `pnpm install` builds) when it is newer than every source it is
 * made from, so a command starts as fast as the installed CLI; else the TypeScript source
 * through tsx. The commands that load the server (`serve`, `keys`, `stats`) always run from
 * source: the workspace's server is TypeScript. The published package's bin is dist/props.js
 * itself (publishConfig).
 */
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const bundle = `${repo}cli/dist/props.js`;
const SOURCES = ['cli/src', 'sdk/src', 'contract/src', 'cli/package.json'];
const NEEDS_SERVER = new Set(['serve', 'keys', 'stats']);

/** The newest modification time under a file or folder (0 when absent). */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let time = stat.mtimeMs;
  for (const name of readdirSync(path)) time = Math.max(time, newest(`${path}/${name}`));
  return time;
}

const bundleTime = newest(bundle);
const fresh = bundleTime > 0 && SOURCES.every((source) => newest(`${repo}${source}`) <= bundleTime);
const needsServer = process.argv.slice(2).some((arg) => NEEDS_SERVER.has(arg));
if (fresh && !needsServer) {
  await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(`${repo}cli/src/main.ts`);
}
