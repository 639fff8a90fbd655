/**
 * The server's import graph keeps the one-way flow of .dependency-cruiser.cjs: no import
 * cycle in server/src or sim/src, no import from a lower concern into a higher one, nothing in
 * sim/ importing the server, the server reaching the simulator through its upstream entry alone,
 * server/src importing nothing of server/test, and bench/ reaching the server only through its
 * package's exports. Fixture trees with one of each show the rules catch them.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

interface Report {
  modules: { source: string; dependencies: { module: string; resolved: string }[] }[];
  summary: { violations: Violation[] };
}

/** depcruise's report on `cwd`'s `folders`. */
async function cruise(cwd: string, folders: string[]): Promise<Report> {
  // depcruise exits non-zero when it finds violations; the JSON report is on stdout either way.
  const { stdout } = await run(process.execPath, [depcruise, '--config', config, '--output-type', 'json', ...folders], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  return JSON.parse(stdout) as Report;
}

/** The violations depcruise finds under `cwd`'s `folders` (server/src by default), one line each. */
async function violations(cwd: string, folders = ['server/src']): Promise<string[]> {
  const report = await cruise(cwd, folders);
  return report.summary.violations.map((v) => {
    const via = v.cycle ? ` (cycle: ${v.cycle.map((c) => c.name).join(' → ')})` : '';
    return `${v.rule.name}: ${v.from} → ${v.to}${via}`;
  });
}

const fixtures: string[] = [];
afterAll(() => {
  for (const dir of fixtures) rmSync(dir, { recursive: true, force: true });
});

/** A fixture tree of `files` in a fresh temporary folder. */
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
  it('every folder and top-level file of server/src stands on one floor', () => {
    const floors = (createRequire(import.meta.url)(config) as { floors: { name: string; entries: string[] }[] }).floors;
    const entries = readdirSync(join(root, 'server/src')).map((name) => name.replace(/\.ts$/, ''));
    const placed = floors.flatMap((f) => f.entries);
    expect(entries.filter((e) => !placed.includes(e))).toEqual([]);
    expect(placed.filter((e) => placed.indexOf(e) !== placed.lastIndexOf(e))).toEqual([]);
  });

  it('server/src and sim have no import cycle and no import against the flow; bench/ uses public entries', async () => {
    expect(await violations(root, ['server/src', 'sim', 'bench'])).toEqual([]);
  }, 120_000);

  it('the rules catch a cycle, a store importing the runtime and the board or the model importing the feed', async () => {
    const dir = fixture({
      'server/src/queries/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'server/src/queries/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      'server/src/runtime.ts': 'export const runtime = 1;\n',
      'server/src/store/open.ts': "import { runtime } from '../runtime';\nexport const open = runtime;\n",
      'server/src/feed/merge.ts': 'export const merge = 1;\n',
      'server/src/board/types.ts': "import { merge } from '../feed/merge';\nexport const board = merge;\n",
      'server/src/odds/fair.ts':
        "import { board } from '../board/types';\nimport { merge } from '../feed/merge';\nexport const fair = board + merge;\n",
    });
    const found = await violations(dir);
    expect(found.filter((v) => v.startsWith('no-cycle: server/src/queries/'))).not.toEqual([]);
    expect(found).toContain('no-lower-into-higher: server/src/store/open.ts → server/src/runtime.ts');
    expect(found).toContain('no-lower-into-higher: server/src/board/types.ts → server/src/feed/merge.ts');
    expect(found).toContain('no-lower-into-higher: server/src/odds/fair.ts → server/src/feed/merge.ts');
    expect(found.filter((v) => v.includes('odds/fair.ts → server/src/board/'))).toEqual([]);
  }, 120_000);

  it('the rules pass a bench importing the declared entries and catch one importing a file behind them', async () => {
    // The rule allows the files the real server/package.json exports: the fixture's entries are some of those.
    const dir = fixture({
      'server/package.json': JSON.stringify({
        name: '@propsfeed/server',
        exports: { '.': './src/index.ts', './store': './src/store/index.ts', './test-kit': './test/kit.ts' },
      }),
      'server/src/index.ts': "export { openDb } from './store/db';\n",
      'server/src/store/index.ts': "export { openDb } from './db';\n",
      'server/src/store/db.ts': 'export const openDb = 1;\n',
      'server/test/kit.ts': "export { buildTestApp } from './helpers/app';\n",
      'server/test/helpers/app.ts': "export { openDb as buildTestApp } from '../../src/store/db';\n",
      'bench/public.ts': "import { openDb } from '@propsfeed/server';\nexport const a = openDb;\n",
      'bench/store.ts': "import { openDb } from '@propsfeed/server/store';\nexport const b = openDb;\n",
      'bench/kit.ts': "import { buildTestApp } from '@propsfeed/server/test-kit';\nexport const c = buildTestApp;\n",
      'bench/internal.ts': "import { openDb } from '../server/src/store/db';\nexport const d = openDb;\n",
      'bench/testHelper.ts':
        "import { buildTestApp } from '../server/test/helpers/app';\nexport const e = buildTestApp;\n",
    });
    // As pnpm links a workspace dependency: bench/node_modules/@propsfeed/server → server/.
    mkdirSync(join(dir, 'bench/node_modules/@propsfeed'), { recursive: true });
    symlinkSync(join(dir, 'server'), join(dir, 'bench/node_modules/@propsfeed/server'), 'dir');
    const report = await cruise(dir, ['bench']);
    const resolved = (source: string) =>
      report.modules.find((m) => m.source === source)?.dependencies.map((d) => d.resolved);
    expect(resolved('bench/public.ts')).toEqual(['server/src/index.ts']);
    expect(resolved('bench/store.ts')).toEqual(['server/src/store/index.ts']);
    expect(resolved('bench/kit.ts')).toEqual(['server/test/kit.ts']);
    expect(await violations(dir, ['bench'])).toEqual([
      'bench-through-public-entries: bench/internal.ts → server/src/store/db.ts',
      'bench-through-public-entries: bench/testHelper.ts → server/test/helpers/app.ts',
    ]);
  }, 120_000);

  it('the rules catch server/src importing server/test', async () => {
    const dir = fixture({
      'server/src/index.ts': "export { buildTestApp } from '../test/helpers/app';\n",
      'server/test/helpers/app.ts': 'export const buildTestApp = 1;\n',
    });
    expect(await violations(dir)).toEqual(['src-apart-from-test: server/src/index.ts → server/test/helpers/app.ts']);
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
    const found = await violations(dir, ['server/src', 'sim']);
    expect(found).toContain('sim-apart-from-server: sim/src/index.ts → server/src/books/names.ts');
    expect(found).toContain('sim-through-upstream-entry: server/src/feed/index.ts → sim/src/index.ts');
    expect(found.filter((v) => v.includes('server/src/upstream/sim.ts →'))).toEqual([]);
  }, 120_000);
});
