import {
  API_TAGS,
  contract,
  ERROR_MEANING,
  ERROR_STATUS,
  type ErrorCode,
  type RouteExample,
  type RouteMeta,
} from '@propsfeed/contract';
import { generateOpenApi } from '@ts-rest/open-api';
import recorded from '../examples.json';

/** Per contract route: the seeded simulator's answer to its example request (docs/examples.json). */
export type ResponseExamples = Record<string, { status: number; body: unknown }>;

const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
const JSON_TYPE = 'application/json';
const EVENT_STREAM = 'text/event-stream';

/** The error table of the reference page: every code with its status and meaning. */
export function errorTable(): string {
  const rows = CODES.map((code) => `| \`${code}\` | ${ERROR_STATUS[code]} | ${ERROR_MEANING[code]} |`);
  return ['| error | status | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** An answer's description: what its status means, naming the error codes it carries. */
function statusMeaning(status: number): string | undefined {
  if (status === 304) return 'Not modified: the ETag sent in If-None-Match still matches';
  const codes = CODES.filter((code) => ERROR_STATUS[code] === status);
  if (codes.length === 0) return undefined;
  return codes.map((code) => `\`${code}\`: ${ERROR_MEANING[code]}`).join(' ');
}

type Parameter = { name: string; in: string; example?: unknown };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses?: Record<string, { description: string; content?: Record<string, { example?: unknown }> }>;
};

/** Shows the route's example request in its parameters and body, and the recorded answer to it. */
function withExamples(
  operation: Operation,
  example: RouteExample | undefined,
  answer: ResponseExamples[string] | undefined,
) {
  for (const p of operation.parameters ?? []) {
    const value = p.in === 'path' ? example?.params?.[p.name] : p.in === 'query' ? example?.query?.[p.name] : undefined;
    if (value !== undefined) p.example = value;
  }
  const body = operation.requestBody?.content[JSON_TYPE];
  if (body && example?.body) body.example = example.body;
  const content = answer && operation.responses?.[answer.status]?.content?.[JSON_TYPE];
  if (content) content.example = answer.body;
}

/** A stream's 200 is text/event-stream: each event's `data:` is the schema (and the example, its first event). */
function asEventStream(operation: Operation): void {
  const ok = operation.responses?.['200'];
  const json = ok?.content?.[JSON_TYPE];
  if (!ok || !json) return;
  ok.content = { [EVENT_STREAM]: json };
  ok.description =
    "Server-Sent Events: each event's `data:` line is one JSON object of this schema (told apart by `type`), its `id:` the event id to resume after";
}

/**
 * The OpenAPI 3 document of the contract: the one the server serves and docs/openapi.json holds.
 * `examples` are the recorded answers (docs/examples.json unless given).
 */
export function buildOpenApi(examples: ResponseExamples = recorded as ResponseExamples): Record<string, unknown> {
  const doc = generateOpenApi(
    contract,
    {
      info: {
        title: 'propsfeed API',
        version: '0.1.0',
        description: [
          'Player-prop lines (over/under lines, American odds) from PrizePicks and Underdog, merged into one normalized feed, pre-game and live.',
          'Each operation shows an example request and the answer the seeded simulator (`props serve` without `PROPS_BOOKS`, seed 20261122, at 2026-11-22T01:00Z) gives to it, with lists cut to their first 3 items and the key replaced by an example.',
          '## Errors',
          'Every error answers `{ "error": code, "message": text }` (a 403 adds `requiredTier`, an ambiguous player name adds `candidates`), with an `x-request-id` header to quote.',
          errorTable(),
        ].join('\n\n'),
      },
      servers: [{ url: 'http://127.0.0.1:8787', description: 'Local server (props serve)' }],
      tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'Authorization: Bearer <API_KEY>. Get a free key with POST /api/v1/keys.',
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    {
      setOperationId: true,
      operationMapper: (operation, route) => {
        const meta = (route.metadata ?? {}) as Partial<RouteMeta>;
        // The operation id is the contract key (setOperationId).
        withExamples(operation as Operation, meta.example, examples[operation.operationId as string]);
        if (meta.eventStream) asEventStream(operation as Operation);
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const meaning = statusMeaning(Number(status));
          if (meaning) (response as { description: string }).description = meaning;
        }
        return {
          ...operation,
          tags: meta.tag ? [meta.tag] : [],
          ...(meta.public ? { security: [] } : {}),
          ...(meta.tier === 'pro' ? { 'x-required-tier': 'pro' } : {}),
        };
      },
    },
  );
  return doc as unknown as Record<string, unknown>;
}
