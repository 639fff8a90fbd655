import { generateSchema } from '@anatine/zod-openapi';
import {
  API_TAGS,
  contract,
  ERROR_MEANING,
  ERROR_STATUS,
  type ErrorCode,
  type RouteExample,
  type RouteMeta,
  WEBHOOK_EVENT_SCHEMAS,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
  WEBHOOK_TIMEOUT_SECONDS,
  type WebhookDeliveredType,
} from '@propsfeed/contract';
import { generateOpenApi } from '@ts-rest/open-api';
import type { oas30, oas31 } from 'openapi3-ts';
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

/** A tag without operations: the error envelope and table, a section of their own after the routes. */
export const ERRORS_TAG = 'Errors';

function errorsSection(): string {
  return [
    'Every error answers `{ "error": code, "message": text }` (a 403 adds `requiredTier`, an ambiguous player name adds `candidates`), with an `x-request-id` header to quote.',
    errorTable(),
  ].join('\n\n');
}

/** An answer's description: what its status means, naming the error codes it carries. */
function statusMeaning(status: number): string | undefined {
  if (status === 304) return 'Not modified: the ETag sent in If-None-Match still matches';
  const codes = CODES.filter((code) => ERROR_STATUS[code] === status);
  if (codes.length === 0) return undefined;
  return codes.map((code) => `\`${code}\`: ${ERROR_MEANING[code]}`).join(' ');
}

/** An operation as @ts-rest/open-api makes it (OpenAPI 3.0), before it becomes 3.1. */
type Operation = oas30.OperationObject & {
  parameters?: oas30.ParameterObject[];
  requestBody?: oas30.RequestBodyObject;
  responses?: Record<string, oas30.ResponseObject>;
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

type Json = unknown;

/**
 * A schema of OpenAPI 3.0 (what @ts-rest/open-api and @anatine/zod-openapi emit) as OpenAPI
 * 3.1 (JSON Schema 2020-12) says it: `nullable` becomes a `null` type (or an `anyOf` with
 * one), and boolean exclusive bounds become numbers. Applied to the whole document: the keys
 * changed appear only in schemas.
 */
export function toJsonSchema2020(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema2020);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(node)) out[k] = toJsonSchema2020(v);
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else if (out[flag] === false) delete out[flag];
  }
  if (out.nullable !== true) {
    delete out.nullable;
    return out;
  }
  delete out.nullable;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return out;
  }
  const { description, ...rest } = out;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}

const RETRY_WORDS = WEBHOOK_RETRY_SCHEDULE_SECONDS.slice(1)
  .map((s) => (s < 60 ? `${s} s` : s < 3_600 ? `${s / 60} min` : `${s / 3_600} h`))
  .join(', ');

/** The headers every delivery carries (Standard Webhooks v1.0.0). */
const WEBHOOK_HEADERS: oas31.ParameterObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The message id: the same on every retry of this delivery. Deduplicate on it.',
    schema: { type: 'string', example: 'msg_2b6f7c0d6f3e4a1b9c8d7e6f5a4b3c2d' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was sent, in unix seconds; refuse one far from your clock (5 minutes).',
    schema: { type: 'string', example: '1795762528' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` + base64 HMAC-SHA256 of `webhook-id.webhook-timestamp.body` under the secret (whsec_…, base64 after the prefix); during a rotation two, space-separated. Verify with a Standard Webhooks library, e.g. `new Webhook(secret).verify(body, headers)` of the `standardwebhooks` npm package.',
    schema: { type: 'string', example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' },
  },
];

/** OpenAPI 3.1's top-level `webhooks`: every event a delivery can carry, with its body's schema. */
function webhooksOf(): oas31.PathsObject {
  const webhooks: oas31.PathsObject = {};
  for (const [type, schema] of Object.entries(WEBHOOK_EVENT_SCHEMAS) as [WebhookDeliveredType, never][]) {
    const json = toJsonSchema2020(generateSchema(schema)) as oas31.SchemaObject;
    webhooks[type] = {
      post: {
        operationId: `webhook:${type}`,
        tags: ['Webhooks'],
        summary: type,
        description: `${json.description ?? ''}. Sent as a POST with the Standard Webhooks headers to every endpoint subscribed (ping and webhook.capped: every endpoint). Any 2xx within ${WEBHOOK_TIMEOUT_SECONDS} s is success; anything else is retried after ${RETRY_WORDS} (±20% jitter, never before a Retry-After); 410 disables the endpoint.`,
        parameters: WEBHOOK_HEADERS,
        requestBody: { required: true, content: { [JSON_TYPE]: { schema: json } } },
        responses: {
          '2XX': { description: 'Received: the delivery succeeded' },
          '410': { description: 'Gone: the endpoint is disabled and receives nothing more' },
          default: { description: 'Anything else (or no answer): retried on the schedule' },
        },
        security: [],
      },
    };
  }
  return webhooks;
}

/**
 * The OpenAPI 3.1 document of the contract: the one the server serves and docs/openapi.json
 * holds, with the webhook events under `webhooks`. @ts-rest/open-api writes OpenAPI 3.0; its
 * schemas are moved to 3.1's JSON Schema here. `examples` are the recorded answers
 * (docs/examples.json unless given).
 */
export function buildOpenApi(examples: ResponseExamples = recorded as ResponseExamples): oas31.OpenAPIObject {
  const doc = generateOpenApi(
    contract,
    {
      info: {
        title: 'propsfeed API',
        version: '0.1.0',
        // Short, so that Authorize and the routes are on the reference page's first screen;
        // the error table is the Errors tag's, shown after the routes.
        description: [
          'Player-prop lines (over/under lines, American odds) from PrizePicks and Underdog, merged into one normalized feed, pre-game and live.',
          "**Authorize** with an API key (`props serve` prints demo keys; `POST /api/v1/keys` gives a free one), then open a route and *Try it out*: each shows an example request and the seeded simulator's answer to it (seed 20261122 at 2026-11-22T01:00Z, lists cut to 3 items). After the routes: the errors, and the webhook events (pro and above, by the Standard Webhooks specification).",
        ].join('\n\n'),
      },
      servers: [{ url: 'http://127.0.0.1:8787', description: 'Local server (props serve)' }],
      tags: [
        ...Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
        { name: ERRORS_TAG, description: errorsSection() },
      ],
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
  const { openapi: _v30, ...rest } = toJsonSchema2020(doc) as oas30.OpenAPIObject;
  return { openapi: '3.1.0', ...(rest as Omit<oas31.OpenAPIObject, 'openapi'>), webhooks: webhooksOf() };
}
