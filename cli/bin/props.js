#!/usr/bin/env node
/**
 * `props` in a clone of the repository (`pnpm -s props`, or this file linked as a bin): the
 * built bundle (cli/dist, which `pnpm install` builds) when it is newer than every source it is
 * made from, so a command starts as fast as the installed CLI; else the TypeScript source
 * through tsx. The commands that load the server (`serve`, `keys`, `stats`) run the CLI from
 * source (it says how to run `props` from a clone) and the server from its bundle (server/dist,
 * also built by `pnpm install`: its worker threads start from their bundled entries beside it)
 * by the same rule, else from source. The published package's bin is dist/props.js itself
 * (publishConfig).
 */
import { fileURLToPath } from 'node:url';
import { bundleIsFresh } from './fresh.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const CLI_BUNDLE = ['cli/dist/props.js'];
const CLI_SOURCES = ['cli/src', 'sdk/src', 'contract/src', 'cli/package.json'];
// The server's library entry and its worker threads' entries (server/tsup.config.ts); the
// guides (docs/*.md) and the board page (web/dist) are copied into it.
const SERVER_BUNDLE = ['server/dist/index.js', 'server/dist/feed-ingest.js', 'server/dist/sim-books.js'];
const SERVER_SOURCES = [
  'server/src',
  'server/package.json',
  'server/tsup.config.ts',
  'contract/src',
  'docs',
  'web/dist',
];
const NEEDS_SERVER = new Set(['serve', 'keys', 'stats']);

const needsServer = process.argv.slice(2).some((arg) => NEEDS_SERVER.has(arg));
if (!needsServer && bundleIsFresh(repo, CLI_BUNDLE, CLI_SOURCES)) {
  await import(`${repo}${CLI_BUNDLE[0]}`);
} else {
  // Before tsx is registered: its hooks would take part in loading every module of the bundle.
  const server =
    needsServer && bundleIsFresh(repo, SERVER_BUNDLE, SERVER_SOURCES)
      ? await import(`${repo}${SERVER_BUNDLE[0]}`)
      : undefined;
  const { register } = await import('tsx/esm/api');
  // The repository's tsconfig (its `paths` point @propsfeed/sdk at the source), whatever the working folder.
  register({ tsconfig: `${repo}tsconfig.json` });
  if (server) {
    const { useServerBundle } = await import(`${repo}cli/src/server.ts`);
    useServerBundle(server);
  }
  await import(`${repo}cli/src/main.ts`);
}
