/**
 * The published package as a consumer gets it: packed by the command docs/sdk.md gives
 * (`pnpm -s sdk:pack`), installed into a fresh ESM project and a fresh CommonJS one (the
 * tarball unpacked, zod and @ts-rest/core linked from the workspace: offline; .ci/packages
 * installs the same from the npm registry), type-checked under `strict` with no `skipLibCheck`,
 * and the guide's first call and the README's snippet run in each with tsx, as `npx tsx` would.
 */
import { execFile, execFileSync } from 'node:child_process';
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
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = join(sdkDir, '..');
const consumerSource = join(sdkDir, 'test', 'consumer');
const KINDS = ['esm', 'cjs'] as const;
const KEY = `pf_${'c'.repeat(32)}`;
let work = '';
let baseUrl = '';
let server: Server | undefined;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

const project = (kind: (typeof KINDS)[number]) => join(work, kind);

/** Just enough of the API for the first calls: games and edges, behind the key. */
function fakeApi(): Server {
  const game = {
    id: 'pp_1',
    sport: 'nba',
    homeTeam: 'Denver Nuggets',
    awayTeam: 'Los Angeles Lakers',
    startTime: '2026-11-22T02:00:00.000Z',
    live: false,
    state: 'pre',
    source: 'prizepicks',
  };
  const edge = { player: 'Nikola Jokic', stat: 'points', edge: { side: 'over', line: 27.5, edge: 0.081 } };
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const body =
      req.headers.authorization !== `Bearer ${KEY}`
        ? { status: 401, json: { error: 'invalid_api_key', message: 'no' } }
        : path === '/api/v1/games'
          ? { status: 200, json: { sport: 'nba', count: 1, games: [game] } }
          : path === '/api/v1/props/edges'
            ? { status: 200, json: { rows: [edge] } }
            : { status: 404, json: { error: 'not_found', message: path } };
    res.writeHead(body.status, { 'content-type': 'application/json' }).end(JSON.stringify(body.json));
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'propsfeed-sdk-consumer-'));
  // The guide's command (after its install), with the tarball written here rather than in the clone.
  run('npx', ['-y', 'pnpm@10', '-s', 'sdk:pack', '--pack-destination', work], repoDir);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('pnpm -s sdk:pack wrote no tarball');
  for (const kind of KINDS) {
    const dir = project(kind);
    cpSync(join(consumerSource, kind), dir, { recursive: true });
    for (const shared of ['types.ts', 'edges.ts']) cpSync(join(consumerSource, shared), join(dir, shared));
    const installed = join(dir, 'node_modules', '@propsfeed', 'sdk');
    mkdirSync(installed, { recursive: true });
    run('tar', ['-xzf', join(work, tarball), '-C', installed, '--strip-components=1'], dir);
    for (const dep of ['zod', '@ts-rest/core']) {
      const target = join(dir, 'node_modules', dep);
      mkdirSync(dirname(target), { recursive: true });
      symlinkSync(realpathSync(join(sdkDir, 'node_modules', dep)), target, 'dir');
    }
  }
  server = fakeApi();
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The ```ts blocks of a Markdown file. */
function tsBlocks(file: string): string[] {
  return [...readFileSync(join(repoDir, file), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
}

describe('the packed @propsfeed/sdk', () => {
  it('ships dist with an exports map, and needs only zod and @ts-rest/core', () => {
    const sdk = join(project('esm'), 'node_modules/@propsfeed/sdk');
    const manifest = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8'));
    expect(manifest.exports['.']).toEqual({
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    });
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@ts-rest/core', 'zod']);
    const files = readdirSync(join(sdk, 'dist')).sort();
    expect(files).toEqual(expect.arrayContaining(['index.cjs', 'index.d.cts', 'index.d.ts', 'index.js']));
    const esm = readFileSync(join(sdk, 'dist/index.js'), 'utf8');
    expect(esm).not.toMatch(/from ["'](node:|@propsfeed\/)/);
    // The declarations import only what the manifest brings (a devDependency there is TS2307 for a consumer).
    for (const types of ['index.d.ts', 'index.d.cts']) {
      const imported = [...readFileSync(join(sdk, 'dist', types), 'utf8').matchAll(/\bfrom ['"]([^'"]+)['"]/g)].map(
        (m) => m[1],
      );
      expect(new Set(imported)).toEqual(new Set(['zod', '@ts-rest/core']));
    }
    // 865 KB before the error envelope's schema type was named (ErrorSchemaType); about 540 KB after.
    expect(statSync(join(sdk, 'dist/index.d.ts')).size).toBeLessThan(600_000);
  });

  it("is what the guide and the README show: the install, each project's first call, the README's snippet", () => {
    const guide = readFileSync(join(repoDir, 'docs/sdk.md'), 'utf8');
    expect(guide).toMatch(/^```sh\nnpx -y pnpm@10 install && npx -y pnpm@10 -s sdk:pack\b/m);
    const blocks = tsBlocks('docs/sdk.md');
    for (const kind of KINDS)
      expect(blocks).toContain(readFileSync(join(consumerSource, kind, 'first-call.ts'), 'utf8'));
    expect(tsBlocks('README.md')[0]).toBe(readFileSync(join(consumerSource, 'edges.ts'), 'utf8'));
  });

  it.each(KINDS)(
    'type-checks a fresh %s project under strict, without skipLibCheck',
    (kind) => {
      const dir = project(kind);
      const { compilerOptions } = JSON.parse(readFileSync(join(dir, 'tsconfig.json'), 'utf8'));
      expect(compilerOptions).toMatchObject({ strict: true, module: 'NodeNext' });
      expect(compilerOptions).not.toHaveProperty('skipLibCheck');
      expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type).toBe(
        kind === 'esm' ? 'module' : 'commonjs',
      );
      const tsc = join(repoDir, 'node_modules', '.bin', 'tsc');
      let out = '';
      try {
        run(tsc, ['-p', join(dir, 'tsconfig.json')], dir);
      } catch (err) {
        out = String((err as { stdout?: string }).stdout);
      }
      expect(out).toBe('');
    },
    60_000,
  );

  it.each(KINDS)(
    "runs the first call and the README's snippet in the %s project with tsx",
    async (kind) => {
      const tsx = join(repoDir, 'node_modules', 'tsx', 'dist', 'cli.mjs');
      const env = { ...process.env, PROPS_API_KEY: KEY, PROPS_BASE_URL: baseUrl };
      const [first, edges] = await Promise.all(
        ['first-call.ts', 'edges.ts'].map((file) =>
          promisify(execFile)(process.execPath, [tsx, file], { cwd: project(kind), env }),
        ),
      );
      expect(first?.stdout).toBe('pp_1 Los Angeles Lakers @ Denver Nuggets pre\n');
      expect(edges?.stdout).toBe('Nikola Jokic points over 27.5 0.081\n');
    },
    60_000,
  );

  it('loads as ESM and as CJS', () => {
    const out = run(process.execPath, ['run.mjs'], project('esm'));
    const loaded = { id: 'pp_1', error: 'AuthenticationError', isBase: true };
    expect(JSON.parse(out)).toEqual({ esm: loaded, cjs: loaded, same: false });
  });
});
