/**
 * The server's import graph keeps the one-way flow of .dependency-cruiser.cjs: no import
 * cycle in server/src, no import from a lower concern into a higher one, and board/ (the
 * ground floor) importing nothing above it. A fixture tree with one of each shows the rules
 * catch them.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** The violations depcruise finds under `cwd`'s server/src, one line each. */
async function violations(cwd: string): Promise<string[]> {
  // depcruise exits non-zero when it finds violations; the JSON report is on stdout either way.
  const { stdout } = await run(
    process.execPath,
    [depcruise, '--config', config, '--output-type', 'json', 'server/src'],
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

describe('architecture', () => {
  it('server/src has no import cycle and no import against the flow', async () => {
    expect(await violations(root)).toEqual([]);
  }, 120_000);

  it('the rules catch a cycle, a store importing the runtime and the board importing above it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'propsfeed-arch-'));
    fixtures.push(dir);
    const files: Record<string, string> = {
      'server/src/queries/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'server/src/queries/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      'server/src/runtime.ts': 'export const runtime = 1;\n',
      'server/src/store/open.ts': "import { runtime } from '../runtime';\nexport const open = runtime;\n",
      'server/src/feed/merge.ts': 'export const merge = 1;\n',
      'server/src/board/types.ts': "import { merge } from '../feed/merge';\nexport const board = merge;\n",
      'server/src/odds/fair.ts':
        "import { board } from '../board/types';\nimport { merge } from '../feed/merge';\nexport const fair = board + merge;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const found = await violations(dir);
    expect(found.filter((v) => v.startsWith('no-cycle: server/src/queries/'))).not.toEqual([]);
    expect(found).toContain('no-lower-into-higher: server/src/store/open.ts → server/src/runtime.ts');
    expect(found).toContain('board-is-ground-floor: server/src/board/types.ts → server/src/feed/merge.ts');
    expect(found).toContain('derived-below-feed: server/src/odds/fair.ts → server/src/feed/merge.ts');
    expect(found.filter((v) => v.includes('odds/fair.ts → server/src/board/'))).toEqual([]);
  }, 120_000);
});
