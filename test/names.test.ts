/**
 * contract/src/names.ts, the table of every route's names, against the code: each contract
 * route is in it with its method, and each name it gives exists where it says.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as contractModule from '@propsfeed/contract';
import { contract, pathOfRouteName, ROUTE_NAMES, type RouteNames, WEBHOOK_EVENT_NAMES } from '@propsfeed/contract';
import { PropsFeed } from '@propsfeed/sdk';
import { describe, expect, it } from 'vitest';
import { callerOf } from '../server/src/auth/caller';
import { createLocalApi } from '../server/src/queries/local';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const rows = (Object.entries(ROUTE_NAMES) as [string, RouteNames][]).map(
  ([key, names]) => [pathOfRouteName(key), names] as const,
);
/** The SDK method a name gives: `webhooks.create` is `create` of the client's `webhooks`. */
function sdkMethod(name: string): unknown {
  let target: unknown = new PropsFeed({ apiKey: 'pf_x', fetch: async () => new Response('{}') });
  for (const part of name.split('.')) target = (target as Record<string, unknown> | undefined)?.[part];
  return target;
}

describe('route names table', () => {
  it('lists every contract route once, under its path and method', () => {
    expect(rows.map(([, n]) => n.contractKey).sort()).toEqual(Object.keys(contract).sort());
    for (const [path, names] of rows) {
      const route = contract[names.contractKey];
      expect([route.path, route.method], names.contractKey).toEqual([`/api/v1${path}`, names.method]);
    }
  });

  it.each(rows)('%s: route file, query, PropsApi, SDK, CLI and MCP names exist', async (path, names) => {
    const routeFile = `server/src/routes/${names.contractKey}.ts`;
    const source = read(routeFile);
    // The route file's first line names its method and path.
    expect(source.split('\n')[0]).toMatch(new RegExp(`^/\\*\\* ${names.method} /api/v1${path.replace(/\//g, '\\/')}:`));

    if (names.query) {
      const [file, fn] = names.query.split('#') as [string, string];
      expect(source).toContain(`from '../queries/${file}'`);
      const mod = (await import(`../server/src/queries/${file}.ts`)) as Record<string, unknown>;
      expect(typeof mod[fn], names.query).toBe('function');
    }

    if (names.propsApi) {
      const local = createLocalApi({} as never, callerOf({ tier: 'free' } as never)) as unknown as Record<
        string,
        unknown
      >;
      expect(typeof local[names.propsApi], names.propsApi).toBe('function');
    }
    expect(typeof sdkMethod(names.sdk), names.sdk).toBe('function');

    if (names.cli) {
      const command = `cli/src/commands/${names.cli}.ts`;
      expect(existsSync(`${root}${command}`), command).toBe(true);
      expect(read(command)).toContain(`.command('${names.cli}')`);
      if (names.propsApi) expect(read(command)).toContain(`client.${names.propsApi}(`);
    }

    for (const tool of names.mcp) {
      const file = `server/src/mcp/tools/${tool.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}.ts`;
      const text = read(file);
      expect(text, file).toContain(`'${tool}'`);
      if (names.propsApi) expect(text, file).toContain(`api.${names.propsApi}(`);
    }
  });
});

describe('webhook event names table', () => {
  it.each(Object.entries(WEBHOOK_EVENT_NAMES))('%s: its schema and producer exist', async (type, names) => {
    const schema = (contractModule as Record<string, unknown>)[names.schema] as { shape: { type: { value: string } } };
    expect(schema?.shape.type.value, names.schema).toBe(type);
    const [file, fn] = names.producer.split('#') as [string, string];
    const mod = (await import(`../server/src/webhooks/${file}.ts`)) as Record<string, unknown>;
    expect(typeof mod[fn], names.producer).toBe('function');
    expect((contractModule.WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)).toBe(names.subscribable);
  });
});
