/**
 * The published package as a consumer gets it: build, pack (publishConfig applies), install
 * into a temp project offline (zod and @ts-rest/core linked from the workspace), type-check a
 * NodeNext consumer, and load both the ESM and the CJS build.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = join(sdkDir, '..');
const consumerSource = join(sdkDir, 'test', 'consumer');
let project = '';

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'propsfeed-sdk-consumer-'));
  run(join(sdkDir, 'node_modules', '.bin', 'tsup'), [], sdkDir);
  run('npx', ['-y', 'pnpm@10', 'pack', '--pack-destination', project], sdkDir);
  const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('pnpm pack wrote no tarball');
  const installed = join(project, 'node_modules', '@propsfeed', 'sdk');
  mkdirSync(installed, { recursive: true });
  run('tar', ['-xzf', join(project, tarball), '-C', installed, '--strip-components=1'], project);
  for (const dep of ['zod', '@ts-rest/core']) {
    const target = join(project, 'node_modules', dep);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(realpathSync(join(sdkDir, 'node_modules', dep)), target, 'dir');
  }
  cpSync(consumerSource, project, { recursive: true });
}, 180_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the packed @propsfeed/sdk', () => {
  it('ships dist with an exports map, and needs only zod and @ts-rest/core', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/@propsfeed/sdk/package.json'), 'utf8'));
    expect(manifest.exports['.']).toEqual({
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    });
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@ts-rest/core', 'zod']);
    const files = readdirSync(join(project, 'node_modules/@propsfeed/sdk/dist')).sort();
    expect(files).toEqual(expect.arrayContaining(['index.cjs', 'index.d.cts', 'index.d.ts', 'index.js']));
    const esm = readFileSync(join(project, 'node_modules/@propsfeed/sdk/dist/index.js'), 'utf8');
    expect(esm).not.toMatch(/from ["'](node:|@propsfeed\/)/);
    // 865 KB before the error envelope's schema type was named (ErrorSchemaType); about 540 KB after.
    expect(statSync(join(project, 'node_modules/@propsfeed/sdk/dist/index.d.ts')).size).toBeLessThan(600_000);
  });

  it('type-checks a strict NodeNext consumer that imports every method type by name (consumer/types.ts)', () => {
    const tsc = join(repoDir, 'node_modules', '.bin', 'tsc');
    expect(() => run(tsc, ['-p', join(project, 'tsconfig.json')], project)).not.toThrow();
  }, 60_000);

  it('loads as ESM and as CJS', () => {
    const out = run(process.execPath, ['run.mjs'], project);
    const loaded = { id: 'pp_1', error: 'AuthenticationError', isBase: true };
    expect(JSON.parse(out)).toEqual({ esm: loaded, cjs: loaded, same: false });
  });
});
