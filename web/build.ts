/**
 * Builds the board page into web/dist: index.html and assets/ with hashed names (esbuild),
 * which `props serve` reads at start and serves at / and /assets/. Run by the repository's
 * postinstall (after the CLI's bundle) and by `pnpm --filter @propsfeed/web build`.
 *
 * The SDK runs in the page as it is, with one difference: the contract it calls through is
 * the route table alone (method, path and answer statuses of each route), generated here from
 * the contract itself. The zod schemas behind it are what a server validates with; the SDK
 * never validates answers with them, and they would be two thirds of the page's JavaScript.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as contractModule from '@propsfeed/contract';
import { build, type Plugin } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const defaultDist = join(here, 'dist');

/** The runtime values of @propsfeed/contract the page and the SDK's client read. */
const CONTRACT_VALUES = [
  'BOOKS',
  'BOOK_NAMES',
  'SPORT_IDS',
  'TIERS',
  'WEBHOOK_EVENT_TYPES',
  'MAX_SCAN_LIMIT',
  'PROBABILITY_METHODS',
] as const;

interface RouteLike {
  method: string;
  path: string;
  responses: Record<string, unknown>;
  contentType?: string;
}

/** ts-rest's client reads a route's method, path, content type and answer statuses: nothing else. */
export function routeTable(router: Record<string, unknown>): Record<string, unknown> {
  const table: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(router)) {
    const route = value as RouteLike;
    if (typeof route.method === 'string' && typeof route.path === 'string') {
      table[name] = {
        method: route.method,
        path: route.path,
        responses: Object.fromEntries(Object.keys(route.responses).map((status) => [status, null])),
        ...(route.contentType ? { contentType: route.contentType } : {}),
      };
    } else {
      table[name] = routeTable(value as Record<string, unknown>);
    }
  }
  return table;
}

export function contractSource(): string {
  const values = contractModule as unknown as Record<string, unknown>;
  const lines = [`export const contract = ${JSON.stringify(routeTable(values.contract as Record<string, unknown>))};`];
  for (const name of CONTRACT_VALUES) lines.push(`export const ${name} = ${JSON.stringify(values[name])};`);
  return lines.join('\n');
}

/**
 * @ts-rest/core builds one zod schema when it loads (the error shape its server helpers answer
 * 400s with); its client never parses with zod. In the page, zod is an inert stand-in, so that
 * one schema costs nothing and zod's 60 KB stay out.
 */
const INERT_ZOD = `const inert = new Proxy(function () {}, { get: () => inert, apply: () => inert });
export const z = inert;
export default inert;`;

const contractRoutes: Plugin = {
  name: 'contract-routes',
  setup(b) {
    b.onResolve({ filter: /^@propsfeed\/contract$/ }, () => ({ path: 'contract', namespace: 'contract-routes' }));
    b.onLoad({ filter: /.*/, namespace: 'contract-routes' }, () => ({ contents: contractSource(), loader: 'js' }));
    b.onResolve({ filter: /^zod$/ }, () => ({ path: 'zod', namespace: 'inert-zod' }));
    b.onLoad({ filter: /.*/, namespace: 'inert-zod' }, () => ({ contents: INERT_ZOD, loader: 'js' }));
  },
};

const page = (script: string, style: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>propsfeed board</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/assets/${style}">
  <script type="module" src="/assets/${script}"></script>
</head>
<body>
  <div id="app"><p>Loading the board…</p></div>
  <noscript>The board needs JavaScript; the API itself is documented at <a href="/docs">/docs</a>.</noscript>
</body>
</html>
`;

export interface BuiltFile {
  name: string;
  bytes: number;
  gzipBytes: number;
}

/** Builds into `dist` (web/dist by default; a test builds elsewhere, so a running server's files stay put). */
export async function buildWeb(dist = defaultDist): Promise<BuiltFile[]> {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(join(dist, 'assets'), { recursive: true });
  const result = await build({
    entryPoints: { app: join(here, 'src/main.tsx') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    minify: true,
    sourcemap: 'linked',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: join(dist, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    alias: { '@propsfeed/sdk': join(here, '../sdk/src/index.ts') },
    plugins: [contractRoutes],
    metafile: true,
    absWorkingDir: here,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint?.endsWith('src/main.tsx'));
  const script = entry && basename(entry[0]);
  const style = entry?.[1].cssBundle && basename(entry[1].cssBundle);
  if (!script || !style) throw new Error('esbuild gave no entry script or stylesheet');
  writeFileSync(join(dist, 'index.html'), page(script, style));
  return outputs
    .filter(([file]) => !file.endsWith('.map'))
    .map(([file]) => {
      const body = gzipSync(readFileSync(join(here, file)), { level: 9 });
      return { name: basename(file), bytes: result.metafile.outputs[file]?.bytes ?? 0, gzipBytes: body.length };
    });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = await buildWeb();
  const js = files.filter((f) => f.name.endsWith('.js')).reduce((sum, f) => sum + f.gzipBytes, 0);
  if (process.argv.includes('--report')) {
    for (const f of files) console.log(`${f.name}  ${f.bytes} B, ${f.gzipBytes} B gzip`);
    console.log(`JavaScript in all: ${js} B gzip`);
  }
}
