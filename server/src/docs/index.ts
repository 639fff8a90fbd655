/**
 * /openapi.json (the contract's document), /docs, an interactive reference page whose
 * assets (Swagger UI) are served from this process (no CDN), and /llms.txt with the guides it
 * links to under /guides/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLlmsTxt, buildOpenApi, ERRORS_TAG, GUIDES } from '@propsfeed/docs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type HostPolicy, isAllowedHost } from '../net/hostGuard';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>propsfeed API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="stylesheet" href="/docs/page.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * The page's script. The document's Errors tag has no operations: Swagger UI would show it as
 * an empty, collapsible heading; a plugin shows its description (the error envelope and table)
 * there instead, after the routes, which keeps the first screen for Authorize and the routes.
 */
const INIT = `const ERRORS_TAG = ${JSON.stringify(ERRORS_TAG)};
const ErrorsAfterRoutes = () => ({
  wrapComponents: {
    OperationTag: (OperationTag, system) => (props) => {
      const h = system.React.createElement;
      if (props.tag !== ERRORS_TAG) return h(OperationTag, props);
      const Markdown = system.getComponent('Markdown', true);
      return h('section', { className: 'propsfeed-errors', id: 'errors' },
        h('h3', null, ERRORS_TAG),
        h(Markdown, { source: props.tagObj.getIn(['tagDetails', 'description'], '') }));
    },
  },
});
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: true,
  validatorUrl: null,
  plugins: [ErrorsAfterRoutes],
});
`;

/** Room between the columns of the page's Markdown tables (Swagger UI gives their cells none). */
const CSS = `.swagger-ui .markdown table :is(th, td), .swagger-ui .renderedMarkdown table :is(th, td) { padding: 6px 16px 6px 0; text-align: left; vertical-align: top; }
.swagger-ui .propsfeed-errors { margin: 32px 0 0; padding: 0 10px; }
.swagger-ui .propsfeed-errors h3 { font-family: sans-serif; font-size: 24px; color: #3b4151; margin: 0 0 5px; padding: 10px 0; border-bottom: 1px solid rgba(59, 65, 81, 0.3); }
.swagger-ui .propsfeed-errors .markdown p { margin: 12px 0; }
`;

/**
 * The reference page runs only its own assets and cannot be framed. Swagger UI sets inline
 * styles and shows data: images, so those two are allowed; no inline or foreign script.
 */
const DOCS_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** Stands in for the server's address in the serialized document, replaced per request. */
const SERVER_URL_SLOT = 'propsfeed:served-from';

/**
 * The address a browser reached this server at, for the document's `servers` (what the
 * reference page's "Try it out" calls): the request's Host and scheme, or the proxy's
 * X-Forwarded-Host/-Proto when PROPS_TRUST_PROXY trusts the peer (Fastify decides that). Only
 * a host the server answers (loopback, PROPS_ALLOWED_HOSTS) is written into the page; any
 * other gets `/`, which OpenAPI reads as the document's own origin.
 */
export function servedFrom(request: FastifyRequest, hosts: HostPolicy): string {
  const host = request.host;
  if (!isAllowedHost(hosts, host)) return '/';
  const scheme = request.protocol === 'https' ? 'https' : 'http';
  return `${scheme}://${host.toLowerCase()}`;
}

/**
 * The guides (docs/*.md): beside the bundle in the published package (its build copies them to
 * dist/guides), in the repository's docs/ when run from source.
 */
function readGuides(): Map<string, Buffer> {
  const places = ['./guides/', '../../../docs/'].map((path) => fileURLToPath(new URL(path, import.meta.url)));
  const dir = places.find((place) => existsSync(join(place, GUIDES[0]?.file ?? '')));
  const guides = new Map<string, Buffer>();
  if (dir === undefined) return guides;
  for (const { file } of GUIDES) {
    if (existsSync(join(dir, file))) guides.set(file, readFileSync(join(dir, file)));
  }
  return guides;
}

const MARKDOWN = 'text/markdown; charset=utf-8';

export async function registerDocs(app: FastifyInstance, hosts: HostPolicy): Promise<void> {
  const document = buildOpenApi();
  document.servers = [{ url: SERVER_URL_SLOT, description: 'This server' }];
  const [head, tail] = JSON.stringify(document).split(JSON.stringify(SERVER_URL_SLOT)) as [string, string];
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const assets = new Map(
    Object.entries(ASSETS).map(([name, type]) => [name, { type, body: readFileSync(join(dir, name)) }]),
  );

  app.get('/openapi.json', async (request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('vary', 'host, x-forwarded-host, x-forwarded-proto')
      .send(`${head}${JSON.stringify(servedFrom(request, hosts))}${tail}`),
  );
  const guides = readGuides();
  app.get('/llms.txt', async (request, reply) => {
    const from = servedFrom(request, hosts);
    const server = from === '/' ? '' : from;
    return reply
      .type(MARKDOWN)
      .header('vary', 'host, x-forwarded-host, x-forwarded-proto')
      .header('x-content-type-options', 'nosniff')
      .send(buildLlmsTxt({ server, guide: (file) => `${server}/guides/${file}` }));
  });
  app.get<{ Params: { file: string } }>('/guides/:file', async (request, reply) => {
    const guide = guides.get(request.params.file);
    if (!guide) return reply.callNotFound();
    return reply.type(MARKDOWN).header('x-content-type-options', 'nosniff').send(guide);
  });
  app.get('/docs', async (_request, reply) => reply.headers(DOCS_HEADERS).type('text/html; charset=utf-8').send(PAGE));
  app.get('/docs/init.js', async (_request, reply) =>
    reply.headers(DOCS_HEADERS).type('application/javascript; charset=utf-8').send(INIT),
  );
  app.get('/docs/page.css', async (_request, reply) =>
    reply.headers(DOCS_HEADERS).type('text/css; charset=utf-8').send(CSS),
  );
  app.get<{ Params: { name: string } }>('/docs/assets/:name', async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.callNotFound();
    return reply
      .headers(DOCS_HEADERS)
      .type(asset.type)
      .header('cache-control', 'public, max-age=86400')
      .send(asset.body);
  });
}
