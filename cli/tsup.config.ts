import { defineConfig } from 'tsup';

/**
 * The published `props`: one ESM file with every dependency bundled in, so installing it
 * fetches nothing and starting it reads one file. The server stays outside (an optional peer
 * that `props serve`, `props keys` and `props stats import` load on demand); `props mcp`'s
 * tools are a chunk loaded only by that command.
 */
export default defineConfig({
  entry: { props: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  splitting: true,
  external: ['@propsfeed/server'],
  noExternal: [/^(?!@propsfeed\/server$)/],
  banner: {
    // Bundled CommonJS dependencies call require() for Node's built-ins.
    js: "import { createRequire as __propsRequire } from 'node:module';\nconst require = __propsRequire(import.meta.url);",
  },
  clean: true,
  minify: false,
});
