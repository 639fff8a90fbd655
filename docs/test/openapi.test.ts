import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { API_TAGS, ERROR_MEANING, ERROR_STATUS, type ErrorCode, WEBHOOK_DELIVERED_TYPES } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import { buildOpenApi, ERRORS_TAG } from '../src/openapi';

const checkedIn = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));

type Operation = {
  operationId: string;
  tags?: string[];
  description?: string;
  security?: unknown[];
  parameters?: { name: string; description?: string; example?: unknown; schema?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { example?: unknown }> }>;
};

type WebhookOperation = {
  description: string;
  parameters: { in: string; name: string }[];
  requestBody: {
    content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }>;
  };
};

function operations(doc: { paths: Record<string, Record<string, Operation>> }) {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method, op })),
  );
}

function byIdOf(doc: { paths: Record<string, Record<string, Operation>> }): Record<string, Operation> {
  return Object.fromEntries(operations(doc).map((o) => [o.op.operationId, o.op]));
}

function byTag(tag: string): string[] {
  return operations(checkedIn)
    .filter((o) => o.op.tags?.includes(tag))
    .map((o) => o.op.operationId);
}

describe('docs/openapi.json', () => {
  it('is what the contract generates (run `pnpm docs:openapi` when this fails)', () => {
    expect(checkedIn).toEqual(JSON.parse(JSON.stringify(buildOpenApi())));
  });

  it('is OpenAPI 3.1, its schemas JSON Schema 2020-12 (null as a type, never `nullable`)', () => {
    expect(checkedIn.openapi).toBe('3.1.0');
    expect(JSON.stringify(checkedIn)).not.toContain('"nullable"');
    const me = byIdOf(checkedIn).getWebhook?.responses['200']?.content?.['application/json'] as {
      schema: { properties: Record<string, { type?: unknown }> };
    };
    expect(me.schema.properties.description?.type).toEqual(['string', 'null']);
  });

  it("lists every webhook event under OpenAPI 3.1's top-level webhooks, with its body's schema and the signed headers", () => {
    expect(Object.keys(checkedIn.webhooks).sort()).toEqual([...WEBHOOK_DELIVERED_TYPES].sort());
    for (const [type, item] of Object.entries(checkedIn.webhooks) as [string, { post: WebhookOperation }][]) {
      const { post } = item;
      expect(post.description, type).toBeTruthy();
      expect(post.parameters.map((p) => `${p.in} ${p.name}`)).toEqual([
        'header webhook-id',
        'header webhook-timestamp',
        'header webhook-signature',
      ]);
      const schema = post.requestBody.content['application/json']?.schema;
      expect(schema?.properties.type).toEqual({ type: 'string', enum: [type] });
      expect(schema?.required).toEqual(['type', 'timestamp', 'data']);
    }
  });

  it('validates as OpenAPI 3', async () => {
    await expect(SwaggerParser.validate(structuredClone(checkedIn))).resolves.toBeTruthy();
  });

  it('lists every operation, each described, with its parameters and error answers', () => {
    const ops = operations(checkedIn);
    expect(ops.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual(
      [
        'GET /api/v1/context/player',
        'GET /api/v1/entries',
        'GET /api/v1/games',
        'GET /api/v1/games/{eventId}/props',
        'GET /api/v1/me',
        'GET /api/v1/props',
        'GET /api/v1/props/edges',
        'GET /api/v1/props/history',
        'GET /api/v1/props/movement',
        'GET /api/v1/props/player',
        'GET /api/v1/props/results',
        'GET /api/v1/props/track-record',
        'GET /api/v1/sports',
        'POST /api/v1/keys',
        'POST /api/v1/slips/evaluate',
        'POST /api/v1/stream/tokens',
        'GET /api/v1/stream',
        'POST /api/v1/webhooks',
        'GET /api/v1/webhooks',
        'GET /api/v1/webhooks/{id}',
        'PATCH /api/v1/webhooks/{id}',
        'DELETE /api/v1/webhooks/{id}',
        'POST /api/v1/webhooks/{id}/rotate-secret',
        'POST /api/v1/webhooks/{id}/test',
        'GET /api/v1/webhooks/{id}/deliveries',
        'POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/retry',
      ].sort(),
    );
    for (const { op } of ops) {
      expect(op.description, op.operationId).toBeTruthy();
      for (const p of op.parameters ?? []) expect(p.description, `${op.operationId} ${p.name}`).toBeTruthy();
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '429']));
    }
    const byId = Object.fromEntries(ops.map((o) => [o.op.operationId, o.op]));
    expect(byId.scan?.parameters?.map((p) => p.name)).toEqual(['sport', 'stat', 'limit', 'state', 'sort', 'minBooks']);
    for (const id of ['games', 'scan', 'playerProps', 'movement', 'edges']) {
      expect(byId[id]?.parameters?.find((p) => p.name === 'state')?.schema, id).toEqual({
        type: 'string',
        enum: ['pre', 'live', 'final', 'all'],
      });
    }
    expect(Object.keys(byId.gameProps?.responses ?? {})).toContain('404');
    expect(Object.keys(byId.me?.responses ?? {})).not.toContain('403');
  });

  it("shows each game's state, on /games and in the stream's game events", () => {
    type Schema = { properties?: Record<string, Schema>; items?: Schema; required?: string[]; enum?: string[] };
    const content = byIdOf(checkedIn).games?.responses['200']?.content ?? {};
    const games = (content['application/json'] as { schema: Schema }).schema;
    const game = games.properties?.games?.items as Schema;
    expect(game.properties?.state?.enum).toEqual(['pre', 'live', 'final']);
    expect(game.required).toEqual(expect.arrayContaining(['live', 'state']));
    const stream = byIdOf(checkedIn).stream?.responses['200']?.content?.['text/event-stream'] as {
      schema: { oneOf: Schema[] };
    };
    const gameEvent = stream.schema.oneOf.find((e) => e.properties?.type?.enum?.[0] === 'game') as Schema;
    expect(gameEvent.properties?.game?.properties?.state?.enum).toEqual(['pre', 'live', 'final']);
    expect(gameEvent.properties?.game?.required).toContain('state');
  });

  it('groups the operations by the API tags, in order, and carries the error table in a tag of its own', () => {
    expect(checkedIn.tags.map((t: { name: string }) => t.name)).toEqual([...Object.keys(API_TAGS), ERRORS_TAG]);
    for (const { op } of operations(checkedIn)) expect(op.tags, op.operationId).toHaveLength(1);
    expect(byTag('Board')).toEqual([
      'playerProps',
      'playerContext',
      'propHistory',
      'movement',
      'entries',
      'edges',
      'evaluateSlip',
      'results',
      'trackRecord',
    ]);
    const errors = checkedIn.tags.find((t: { name: string }) => t.name === ERRORS_TAG)?.description;
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(errors).toContain(`| \`${code}\` | ${status} | ${ERROR_MEANING[code as ErrorCode]} |`);
    }
    // The introduction stays short: the reference page's first screen is Authorize and the routes.
    expect(checkedIn.info.description.length).toBeLessThan(700);
    expect(operations(checkedIn).every(({ op }) => !op.tags?.includes(ERRORS_TAG))).toBe(true);
  });

  it('shows an example request and the recorded answer on every operation', () => {
    for (const { op } of operations(checkedIn)) {
      const [status, success] = Object.entries(op.responses).find(([s]) => s.startsWith('2')) ?? [];
      const content = success?.content?.['application/json'] ?? success?.content?.['text/event-stream'];
      expect(content?.example, `${op.operationId} ${status}`).toBeTypeOf('object');
    }
    // The stream is documented as text/event-stream, its example the first event (the snapshot).
    const stream = byIdOf(checkedIn).stream;
    expect(Object.keys(stream?.responses['200']?.content ?? {})).toEqual(['text/event-stream']);
    expect(stream?.responses['200']?.content?.['text/event-stream']?.example).toMatchObject({ type: 'snapshot' });
    const byId = Object.fromEntries(operations(checkedIn).map((o) => [o.op.operationId, o.op]));
    expect(byId.scan?.parameters?.map((p) => p.example)).toEqual([
      'nba',
      'points',
      '3',
      undefined,
      undefined,
      undefined,
    ]);
    expect(byId.gameProps?.parameters?.find((p) => p.name === 'eventId')?.example).toBe('pp_10016885');
    expect(byId.createKey?.requestBody?.content['application/json']?.example).toEqual({
      email: 'you@example.com',
      label: 'my laptop',
    });
  });

  it('uses bearer auth everywhere but on the public key route', () => {
    expect(checkedIn.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(checkedIn.security).toEqual([{ bearerAuth: [] }]);
    for (const { op } of operations(checkedIn)) {
      if (op.operationId === 'createKey') expect(op.security).toEqual([]);
      else expect(op.security).toBeUndefined();
    }
  });
});
