/**
 * The server's import graph keeps the one-way flow of .dependency-cruiser.cjs: no import
 * cycle in server/src, no import from a lower concern into a higher one, nothing in sim/
 * importing the server, and the server reaching the simulator through its upstream entry
 * alone. Fixture trees with one of each show the rules catch them.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const depcruise = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const config = join(root, '.dependency-cruiser.cjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}

/** The violations depcruise finds under `cwd`'s server/src and `sims` (sim/ where there is one), one line each. */
async function violations(cwd: string, sims: string[] = []): Promise<string[]> {
  // depcruise exits non-zero when it finds violations; the JSON report is on stdout either way.
  const { stdout } = await run(
    process.execPath,
    [depcruise, '--config', config, '--output-type', 'json', 'server/src', ...sims],
    {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations.map((v) => {
    const via = v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(' → ')})` : '';
    return `${v.rule.name}: ${v.from} → ${v.to}${via}`;
  });
}

const fixtures: string[] = [];
afterAll(() => {
  for (const dir of fixtures) rmSync(dir, { recursive: true, force: true });
});

/** A fixture tree of `files` (path → text) in a new temporary folder. */
function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'propsfeed-arch-'));
  fixtures.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('architecture', () => {
  it('server/src and sim have no import cycle and no import against the flow', async () => {
    expect(await violations(root, ['sim'])).toEqual([]);
  }, 120_000);

  it('the rules catch a cycle and a store importing the runtime', async () => {
    const dir = fixture({
      'server/src/queries/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'server/src/queries/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      'server/src/runtime.ts': 'export const runtime = 1;\n',
      'server/src/store/open.ts': "import { runtime } from '../runtime';\nexport const open = runtime;\n",
    });
    const found = await violations(dir);
    expect(found.filter((v) => v.startsWith('no-cycle: server/src/queries/'))).not.toEqual([]);
    expect(found).toContain('no-lower-into-higher: server/src/store/open.ts → server/src/runtime.ts');
  }, 120_000);

  it('the rules catch the simulator importing the server, and the server importing it past its upstream entry', async () => {
    const dir = fixture({
      'sim/package.json': JSON.stringify({
        name: '@propsfeed/sim',
        type: 'module',
        exports: { '.': './src/index.ts' },
      }),
      'sim/src/index.ts':
        "import { playerKey } from '../../server/src/books/names';\nexport const SimWorld = playerKey;\n",
      'server/src/books/names.ts': 'export const playerKey = 1;\n',
      'server/src/upstream/sim.ts': "import { SimWorld } from '@propsfeed/sim';\nexport const sim = SimWorld;\n",
      'server/src/feed/index.ts': "import { SimWorld } from '@propsfeed/sim';\nexport const feed = SimWorld;\n",
    });
    // How the workspace links it: server/node_modules/@propsfeed/sim → sim.
    mkdirSync(join(dir, 'server/node_modules/@propsfeed'), { recursive: true });
    symlinkSync('../../../sim', join(dir, 'server/node_modules/@propsfeed/sim'));
    const found = await violations(dir, ['sim']);
    expect(found).toContain('sim-apart-from-server: sim/src/index.ts → server/src/books/names.ts');
    expect(found).toContain('sim-through-upstream-entry: server/src/feed/index.ts → sim/src/index.ts');
    expect(found.filter((v) => v.includes('server/src/upstream/sim.ts →'))).toEqual([]);
  }, 120_000);
});
