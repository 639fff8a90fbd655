import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

const docs = fileURLToPath(new URL('../docs/', import.meta.url));
const web = fileURLToPath(new URL('../web/dist/', import.meta.url));

/**
 * The published server: its library entry, the MCP stdio tools and the `propsfeed` binary (the
 * `props` CLI bundled with this server). Workspace packages and the CLI's own libraries are
 * bundled in; the server's dependencies stay dependencies. The binary's on-demand
 * `import('@propsfeed/server')` stays a self-reference, answered by this package's exports.
 */
export default defineConfig({
  // sim-books and feed-ingest: worker threads (the simulated books, ingest), each loaded beside
  // the chunk that starts it (@propsfeed/sim's books.ts, threads/start.ts).
  entry: {
    index: 'src/index.ts',
    mcp: 'src/mcp/stdio.ts',
    propsfeed: 'src/bin/propsfeed.ts',
    'sim-books': '../sim/src/worker.ts',
    'feed-ingest': 'src/cluster/ingestWorker.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  splitting: true,
  external: ['@propsfeed/server', '@propsfeed/server/mcp'],
  // @ts-rest/fastify too: its peer range says fastify 4 (it runs on 5), which npm would report
  // as ERESOLVE on every install of a dependency; bundled, it is not a dependency at all.
  noExternal: ['@propsfeed/contract', '@propsfeed/docs', '@propsfeed/sdk', '@propsfeed/sim', '@ts-rest/fastify'],
  banner: {
    // Bundled CommonJS libraries (the CLI's table printer) call require() for Node's built-ins.
    js: "import { createRequire as __propsRequire } from 'node:module';\nconst require = __propsRequire(import.meta.url);",
  },
  clean: true,
  // The guides /llms.txt links to, served at /guides/ by the installed server too, and the board page.
  onSuccess: async () => {
    mkdirSync('dist/guides', { recursive: true });
    for (const file of readdirSync(docs).filter((name) => name.endsWith('.md'))) {
      copyFileSync(`${docs}${file}`, `dist/guides/${file}`);
    }
    // The board page (web/, built before this package: a dev dependency), served at / by the installed server too.
    if (!existsSync(`${web}index.html`)) throw new Error('web/dist is not built: run the web package build first');
    cpSync(web, 'dist/web', { recursive: true, filter: (path) => !path.endsWith('.map') });
  },
});
