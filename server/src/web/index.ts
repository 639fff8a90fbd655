/**
 * The board in a browser: `GET /` answers the page web/ builds (Preact, uPlot, the SDK), and
 * `/assets/<name>` its hashed files, all read into memory at start. The page calls the API on
 * this same origin with the key the user types in; it never carries the key in a URL.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createHostGuard, type HostPolicy } from '../net/hostGuard';

/** The page runs only its own files, talks only to this origin and cannot be framed. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE_HEADERS = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** A hashed name changes with its content, so a browser may keep it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface WebBundle {
  /** The page's HTML. */
  page: Buffer;
  /** Its hashed files by name. */
  assets: Map<string, { type: string; body: Buffer }>;
}

/**
 * The built page: beside the bundle in the published package (its build copies web/dist to
 * dist/web), in the repository's web/dist when run from source; undefined when not built.
 */
export function readWebBundle(
  places = ['./web/', '../../../web/dist/'].map((path) => fileURLToPath(new URL(path, import.meta.url))),
): WebBundle | undefined {
  const dir = places.find((place) => existsSync(join(place, 'index.html')));
  if (dir === undefined) return undefined;
  const assets = new Map<string, { type: string; body: Buffer }>();
  const assetDir = join(dir, 'assets');
  for (const name of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const type = TYPES[extname(name)];
    // Source maps and anything else the build leaves stay unserved.
    if (type) assets.set(name, { type, body: readFileSync(join(assetDir, name)) });
  }
  return { page: readFileSync(join(dir, 'index.html')), assets };
}

const NOT_BUILT =
  'The board page is not built: run `pnpm install` (or `pnpm --filter @propsfeed/web build`) in the repository, then restart.';

export async function registerWeb(
  app: FastifyInstance,
  hosts: HostPolicy,
  bundle: WebBundle | undefined,
): Promise<void> {
  // Like /mcp: a page fetched through a name re-pointed at loopback (DNS rebinding) is refused.
  const hostGuard = createHostGuard(hosts);
  app.get('/', { preHandler: hostGuard }, async (_request, reply) => {
    if (!bundle) return reply.status(404).send({ error: 'not_found', message: NOT_BUILT });
    return reply
      .headers(PAGE_HEADERS)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(bundle.page);
  });
  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const asset = bundle?.assets.get(request.params.name);
    if (!asset) return reply.callNotFound();
    return reply.headers(PAGE_HEADERS).header('cache-control', IMMUTABLE).type(asset.type).send(asset.body);
  });
}
