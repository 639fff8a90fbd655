import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

const contractSource = fileURLToPath(new URL('../contract/src/index.ts', import.meta.url));

/**
 * The published build: ESM and CJS with declarations. The workspace contract is bundled in
 * (code and types), and so are eventsource-parser and standardwebhooks (with its two small
 * pure-JS dependencies), so a consumer installs only zod and @ts-rest/core.
 */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: {
    // `paths` makes TypeScript see the contract as first-party source (not a node_modules
    // symlink), so its declarations are inlined; its relative imports must resolve too.
    // standardwebhooks' types are inlined as its code is (the SDK re-exports its error class):
    // a consumer has no such package, and `tsc` without skipLibCheck would fail with TS2307.
    compilerOptions: { paths: { '@propsfeed/contract': [contractSource] } },
    resolve: [/^\./, 'standardwebhooks'],
  },
  // The SSE parser and the Standard Webhooks verifier are bundled too (small, pure JS).
  noExternal: ['@propsfeed/contract', 'eventsource-parser', 'standardwebhooks', '@stablelib/base64', 'fast-sha256'],
  external: ['zod', '@ts-rest/core'],
  platform: 'neutral',
  target: 'es2022',
  clean: true,
  sourcemap: true,
});
