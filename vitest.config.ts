import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The SDK's exports point at its build; tests run its source (as tsconfig's `paths` does for tsc and tsx).
  resolve: { alias: { '@propsfeed/sdk': fileURLToPath(new URL('./sdk/src/index.ts', import.meta.url)) } },
  test: {
    include: ['*/test/**/*.test.ts', 'test/**/*.test.ts', '*/src/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'sdk/test/consumer/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
