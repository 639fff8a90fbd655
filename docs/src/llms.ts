/**
 * llms.txt (https://llmstxt.org): what a language model reads first about propsfeed. The
 * repository's copy (`llms.txt` at the root, links into docs/) and the one a server serves at
 * `/llms.txt` (links to itself) are written by this one function, so they cannot disagree.
 */
import { MCP_TOOL_NAMES } from '@propsfeed/contract';

export interface Guide {
  /** The file under docs/. */
  file: string;
  title: string;
  /** What a reader (or a model) comes to it for. */
  about: string;
}

/** The guides in docs/, in reading order; the last ones are background a model can skip. */
export const GUIDES: readonly Guide[] = [
  { file: 'api.md', title: 'REST API', about: 'every /api/v1 route by section, tiers, the error envelope' },
  {
    file: 'sdk.md',
    title: 'TypeScript SDK',
    about: '@propsfeed/sdk: methods, typed errors, retries, the stream client',
  },
  { file: 'cli.md', title: 'The props CLI', about: 'every `props` command, its output and exit codes' },
  {
    file: 'board.md',
    title: 'The board in a browser',
    about: 'the page props serve answers at /: board, line charts, track record, key',
  },
  {
    file: 'edges.md',
    title: 'Edges and the track record',
    about: 'probabilities, entry types, edges, slips, results, calibration',
  },
  {
    file: 'stream.md',
    title: 'Live stream',
    about: 'GET /api/v1/stream (Server-Sent Events): events, filters, exact resume',
  },
  {
    file: 'webhooks.md',
    title: 'Webhooks',
    about: 'signed pushes (Standard Webhooks): events, retries, verifying them',
  },
  { file: 'mcp.md', title: 'MCP tools', about: 'the agent tools over Streamable HTTP (/mcp) and stdio (`props mcp`)' },
  { file: 'server.md', title: 'Running the server', about: '`props serve`: settings, keys, limits, game-log import' },
  { file: 'deployment.md', title: 'Deployment', about: 'many replicas on PostgreSQL and Redis, behind a proxy' },
  {
    file: 'development.md',
    title: 'Development',
    about: 'packages, layout, commands, install notes per Node version, benchmarks',
  },
  {
    file: 'benchmarks.md',
    title: 'Benchmarks',
    about: 'the latest speed figures (props serve against bare Fastify, merge cost) and how to run each',
  },
];

/** The guides a model can skip (llms.txt's "Optional" section). */
const OPTIONAL = new Set(['server.md', 'deployment.md', 'development.md', 'benchmarks.md']);

export interface LlmsLinks {
  /** The server's address, without a trailing slash ('' for links relative to the page's origin). */
  server: string;
  /** Where a guide can be read. */
  guide: (file: string) => string;
}

const MCP_TOOLS = [...MCP_TOOL_NAMES].sort();

const guideLine = (g: Guide, links: LlmsLinks) => `- [${g.title}](${links.guide(g.file)}): ${g.about}`;

export function buildLlmsTxt(links: LlmsLinks): string {
  const { server } = links;
  return `# propsfeed

> Player-prop lines (over/under lines, American odds) from PrizePicks and Underdog merged into one normalized feed, pre-game and live, priced (fair probabilities, edges against each entry type's breakeven, slip expected returns), over a REST API, a TypeScript SDK, the \`props\` CLI, a live stream and MCP tools.

Every call needs \`Authorization: Bearer <key>\` (keys look like \`pf_\` and 32 letters and digits; \`POST ${server}/api/v1/keys\` with \`{"email": "..."}\` issues a free one). Tiers decide what a key sees: free (NBA, 10 minutes late), pro (NBA, WNBA, MLB; history, movers, edges, slips), sharp and enterprise (every sport, live in-game lines). Every error is \`{"error": code, "message": text}\`; a 403 adds \`requiredTier\`, an ambiguous player name adds \`candidates\`. Sports are \`nba\`, \`wnba\`, \`mlb\`, \`nfl\`, \`nhl\`, \`ncaab\`, \`ncaaf\`, \`soccer\`, \`lol\`; stat keys are lowercase snake case (\`points\`, \`rebounds\`, \`threes\`, \`pra\`, \`strikeouts\`, ...).

## What to use for what

- Answering a person's question about tonight's props in a conversation: the MCP tools at \`${server}/mcp\` (${MCP_TOOLS.map((t) => `\`${t}\``).join(', ')}), with the same bearer key.
- Writing code in TypeScript or JavaScript: \`@propsfeed/sdk\` (\`new PropsFeed({ apiKey })\`, one typed method per route, typed errors).
- Calling from any other language, or generating a client: the OpenAPI document below (every route, schema and an example answer).
- Following changes as they happen: \`GET /api/v1/stream\` (Server-Sent Events, resumable) or webhooks.
- Working in a terminal: the \`props\` CLI (\`props games\`, \`props edges\`, \`props evaluate-slip\`, \`props player-props\`).

## API

- [OpenAPI document](${server}/openapi.json): every /api/v1 route with its parameters, schemas and an example answer
- [MCP endpoint](${server}/mcp): Streamable HTTP, revisions 2025-11-25 and 2026-07-28, bearer key as for REST
- [Reference page](${server}/docs): the OpenAPI document, interactive

## Guides

${GUIDES.filter((g) => !OPTIONAL.has(g.file))
  .map((g) => guideLine(g, links))
  .join('\n')}

## Optional

${GUIDES.filter((g) => OPTIONAL.has(g.file))
  .map((g) => guideLine(g, links))
  .join('\n')}
`;
}

/** The repository's copy: guides beside it in docs/, the server at its default address. */
export const repositoryLlmsTxt = () =>
  buildLlmsTxt({ server: 'http://127.0.0.1:8787', guide: (file) => `docs/${file}` });
