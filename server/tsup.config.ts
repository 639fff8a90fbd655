import { defineConfig } from 'tsup';

/**
 * The published server: its library entry, the MCP stdio tools and the `propsfeed` binary (the
 * `props` CLI bundled with this server). Workspace packages and the CLI's own libraries are
 * bundled in; the server's dependencies stay dependencies. The binary's on-demand
 * `import('@propsfeed/server')` stays a self-reference, answered by this package's exports.
 */
export default defineConfig({
  // sim-books: the simulated books' worker thread (sim/books.ts loads it beside the chunk that starts it).
  entry: {
    index: 'src/index.ts',
    mcp: 'src/mcp/stdio.ts',
    propsfeed: 'src/bin/propsfeed.ts',
    'sim-books': 'src/sim/worker.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  splitting: true,
  external: ['@propsfeed/server', '@propsfeed/server/mcp'],
  noExternal: ['@propsfeed/contract', '@propsfeed/docs', '@propsfeed/sdk'],
  banner: {
    // Bundled CommonJS libraries (the CLI's table printer) call require() for Node's built-ins.
    js: "import { createRequire as __propsRequire } from 'node:module';\nconst require = __propsRequire(import.meta.url);",
  },
  clean: true,
});
