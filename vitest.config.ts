import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*/test/**/*.test.ts', 'test/**/*.test.ts', '*/src/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**', 'sdk/test/consumer/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
