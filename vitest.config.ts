import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Floods measured against the same server idle: they run alone, after every other file. */
const FLOODS = 'server/test/abuse/abuse.test.ts';

/**
 * The files that take longest (a minute-long stream read, restarts, replicas), started first so
 * the workers finish together. Vitest orders by its cache of past durations, which a fresh clone
 * (CI) does not have; without it a long file picked last runs alone at the end.
 */
const SLOWEST_FIRST = [
  'server/test/abuse/wholeBoard.test.ts',
  'server/test/webhooks/replicas.test.ts',
  'test/sdk-cli.e2e.test.ts',
  'web/test/page.e2e.test.ts',
  'sdk/test/package.test.ts',
  'cli/test/serve.test.ts',
  'server/test/webhooks/restart.test.ts',
  'server/test/cluster/replicas.test.ts',
  'server/test/sim/sim.test.ts',
  'test/webhooks.e2e.test.ts',
  'server/test/mcp/stdio.test.ts',
];

class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = SLOWEST_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return at < 0 ? SLOWEST_FIRST.length : at;
    };
    return sorted
      .map((spec, order) => ({ spec, order }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.order - b.order)
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  // The SDK's exports point at its build; tests run its source (as tsconfig's `paths` does for tsc and tsx).
  resolve: { alias: { '@propsfeed/sdk': fileURLToPath(new URL('./sdk/src/index.ts', import.meta.url)) } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      {
        extends: true,
        // Most files wait on child processes, sockets and timers more than on the CPU: three at once
        // on two cores (vitest's default is one fewer than the cores, here one).
        // (include and exclude are each project's own: `extends` would append a root list to them)
        test: {
          name: 'suite',
          include: ['*/test/**/*.test.ts', 'test/**/*.test.ts', '*/src/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', 'sdk/test/consumer/**', FLOODS],
          maxWorkers: 3,
          // One module cache per worker, not per file: importing the server anew for each of ~120 files
          // cost more CPU than most tests.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'floods', include: [FLOODS], maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
