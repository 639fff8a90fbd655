/**
 * The tools' and prompts' schemas as the MCP SDK takes them (Standard Schema with JSON Schema),
 * made from zod 3 schemas built on the contract's. zod 3 validates, with the messages, defaults
 * and transforms the REST routes use; zod-to-json-schema describes. The SDK itself brings zod 4
 * for its own wire types, but no schema of ours is written twice.
 *
 * The JSON Schema is inlined (no `$ref`), and a nullable field is written `anyOf: [{type: x},
 * {type: "null"}]` rather than `type: [x, "null"]`, which clients that map tool schemas onto a
 * single-`type` dialect (Gemini's function declarations, the Inspector's `--strict`) reject.
 */
import type { StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { zodToJsonSchema } from 'zod-to-json-schema';

type JsonSchema = Record<string, unknown>;

/** Keys whose value maps names to schemas (not a schema itself). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
/** Keys whose value is data (not a schema): copied as they are. */
const DATA_KEYS = new Set(['enum', 'const', 'default', 'examples', 'required']);
/** Keys that describe a field, kept beside `anyOf` when a type list is split. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated']);

/** `type: [x, "null"]` → `anyOf` of single types, everywhere in the tree; `$schema` dropped (the SDK's dialect applies). */
export function portableJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portableJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (DATA_KEYS.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, portableJsonSchema(schema)]));
    } else out[key] = portableJsonSchema(value);
  }
  if (!Array.isArray(out.type)) return out;
  const types = out.type as string[];
  const annotations: JsonSchema = {};
  const constraints: JsonSchema = {};
  for (const [key, value] of Object.entries(out)) {
    if (key !== 'type') (ANNOTATIONS.has(key) ? annotations : constraints)[key] = value;
  }
  if (types.length === 1) return { ...annotations, type: types[0], ...constraints };
  return {
    ...annotations,
    anyOf: types.map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...constraints })),
  };
}

function toJsonSchema(schema: z.ZodTypeAny, io: 'input' | 'output'): JsonSchema {
  const raw = zodToJsonSchema(schema, { $refStrategy: 'none', strictUnions: true, pipeStrategy: io });
  return portableJsonSchema(raw) as JsonSchema;
}

function issuesOf(error: z.ZodError): StandardSchemaV1.Issue[] {
  return error.issues.map((issue) => ({ message: issue.message, path: issue.path }));
}

export interface McpSchema<T extends z.ZodTypeAny> extends StandardSchemaWithJSON<z.input<T>, z.output<T>> {
  /** The object's fields, where the SDK looks for a prompt argument's completions. */
  readonly shape?: Record<string, object>;
}

/**
 * A zod 3 schema for the SDK: validation by zod, JSON Schema converted once on first use (the
 * servers are made per request; the schemas are module constants, so each converts once).
 */
export function mcpSchema<T extends z.ZodTypeAny>(
  schema: T,
  opts: { shape?: Record<string, object> } = {},
): McpSchema<T> {
  const converted: Partial<Record<'input' | 'output', JsonSchema>> = {};
  const jsonSchemaOf = (io: 'input' | 'output') => {
    converted[io] ??= toJsonSchema(schema, io);
    return structuredClone(converted[io]);
  };
  return {
    ...(opts.shape ? { shape: opts.shape } : {}),
    '~standard': {
      version: 1,
      vendor: 'propsfeed-zod3',
      validate(value: unknown) {
        const parsed = schema.safeParse(value);
        return parsed.success ? { value: parsed.data } : { issues: issuesOf(parsed.error) };
      },
      jsonSchema: {
        input: () => jsonSchemaOf('input'),
        output: () => jsonSchemaOf('output'),
      },
    },
  };
}
