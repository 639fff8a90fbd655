/**
 * One name per thing. Each contract key is also its route's file (server/src/routes/<key>.ts),
 * its query (server/src/queries/<key>.ts, `<key>Query`), its PropsApi method, its SDK method and,
 * where the CLI has one, its `props` command (the key in kebab-case, cli/src/commands/<key>.ts).
 * Every name here is read from the code: the contract's keys, the files on disk, the methods the
 * SDK and the in-process API have. The one table is which MCP tools answer from which route,
 * since the spec fixes the tools' names.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as contractModule from '@propsfeed/contract';
import { contract, MCP_TOOL_NAMES, type McpToolName, WEBHOOK_EVENT_TYPES } from '@propsfeed/contract';
import { PropsFeed } from '@propsfeed/sdk';
import { describe, expect, it } from 'vitest';
import { DEPRECATED_COMMANDS } from '../cli/src/program';
import { callerOf } from '../server/src/auth/caller';
import { TOOLS } from '../server/src/mcp/tools/index';
import { createLocalApi } from '../server/src/queries/local';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
const filesIn = (dir: string) =>
  readdirSync(`${root}${dir}`)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3));
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const camel = (name: string) => name.replace(/[-_]([a-z])/g, (_, c: string) => c.toUpperCase());

const KEYS = Object.keys(contract) as (keyof typeof contract)[];
const isKey = (name: string): name is keyof typeof contract => Object.hasOwn(contract, name);
/** The webhook routes are the SDK's `webhooks` group: `createWebhook` is `webhooks.create`. */
const WEBHOOK_KEYS = KEYS.filter((k) => /webhook/i.test(k));
const webhookMethod = (key: string) => {
  const rest = key.replace(/[wW]ebhooks?/, '');
  return rest.charAt(0).toLowerCase() + rest.slice(1);
};

/**
 * The PropsApi methods (contract keys) each MCP tool calls. Irreducible: the spec names the
 * tools, not the routes behind them.
 */
const TOOL_ROUTES: Record<McpToolName, readonly (keyof typeof contract)[]> = {
  list_sports: ['sports'],
  list_games: ['games'],
  get_game_props: ['gameProps'],
  scan_props: ['scan'],
  find_game: ['sports', 'games'],
  find_player_props: ['playerProps'],
  get_player_context: ['playerContext'],
  get_prop_history: ['propHistory'],
  scan_movers: ['movement'],
  find_edges: ['edges'],
  evaluate_slip: ['evaluateSlip'],
  get_track_record: ['trackRecord'],
};

/** A method marked `@deprecated use \`new\`` just above it in a source file: old name → new name. */
function deprecatedMethods(path: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of read(path).matchAll(/@deprecated use `(\w+)`[^\n]*\*\/\n\s+(?:async )?(\w+)\(/g)) {
    found.set(m[2] as string, m[1] as string);
  }
  return found;
}

describe('route files (server/src/routes/)', () => {
  const routeFiles = filesIn('server/src/routes').filter((f) =>
    /^\/\*\* (GET|POST|PATCH|DELETE) \/api\/v1/.test(read(`server/src/routes/${f}.ts`)),
  );

  it('are one per contract key, named after it', () => {
    expect(routeFiles.sort()).toEqual([...KEYS].sort());
  });

  it.each(KEYS)('%s.ts: its first line names its method and path', (key) => {
    const { method, path } = contract[key];
    expect(read(`server/src/routes/${key}.ts`).split('\n')[0]).toMatch(
      new RegExp(`^/\\*\\* ${method} ${path.replace(/\//g, '\\/')}:`),
    );
  });
});

describe('queries (server/src/queries/)', () => {
  const queryFiles = filesIn('server/src/queries').filter((f) =>
    new RegExp(`export (async )?function ${f}Query\\b`).test(read(`server/src/queries/${f}.ts`)),
  );

  it('each query is named after its route: file <key>.ts exports <key>Query', () => {
    expect(queryFiles.filter((f) => !isKey(f))).toEqual([]);
  });

  it.each(KEYS)('routes/%s.ts imports no query but its own', (key) => {
    const imported = [...read(`server/src/routes/${key}.ts`).matchAll(/from '\.\.\/queries\/(\w+)'/g)]
      .map((m) => m[1])
      .filter((f) => queryFiles.includes(f as string));
    expect(imported).toEqual(queryFiles.includes(key) ? [key] : []);
  });

  it('PropsApi (in-process) has one method per query, named after it', () => {
    const local = createLocalApi({} as never, callerOf({ tier: 'free' } as never));
    expect(Object.keys(local).sort()).toEqual([...queryFiles].sort());
  });
});

describe('SDK methods (sdk/src/)', () => {
  const client = new PropsFeed({ apiKey: 'pf_x', fetch: async () => new Response('{}') });
  const methods = Object.getOwnPropertyNames(PropsFeed.prototype).filter((m) => m !== 'constructor');
  const deprecated = deprecatedMethods('sdk/src/client.ts');

  it.each(KEYS.filter((k) => !WEBHOOK_KEYS.includes(k)))('client.%s', (key) => {
    expect(typeof (client as unknown as Record<string, unknown>)[key]).toBe('function');
  });

  it.each(WEBHOOK_KEYS)('%s: client.webhooks.<the key without "Webhook">', (key) => {
    expect(typeof (client.webhooks as unknown as Record<string, unknown>)[webhookMethod(key)]).toBe('function');
  });

  it('every other method is a deprecated alias of one named after its route', () => {
    const others = methods.filter((m) => !isKey(m));
    expect(others.sort()).toEqual([...deprecated.keys()].sort());
    for (const target of deprecated.values()) expect(isKey(target), target).toBe(true);
    const webhookAliases = deprecatedMethods('sdk/src/webhooks.ts');
    const webhookNames = new Set(WEBHOOK_KEYS.map(webhookMethod));
    expect(Object.keys(client.webhooks).filter((m) => !webhookNames.has(m))).toEqual([...webhookAliases.keys()]);
    for (const target of webhookAliases.values()) expect(webhookNames.has(target), target).toBe(true);
  });
});

describe('CLI commands (cli/src/commands/)', () => {
  const commands = filesIn('cli/src/commands');
  /** The commands a file registers (a parent's subcommands too): `.command('name')` or `requestCommand({ name: 'name'`. */
  const commandNames = (file: string) =>
    [...read(`cli/src/commands/${file}.ts`).matchAll(/(?:\.command\(|requestCommand\(\{\s*name: )'([a-z-]+)'/g)].map(
      (m) => m[1],
    );

  it.each(commands)('%s.ts registers `props <its name in kebab-case>`', (file) => {
    expect(commandNames(file)).toContain(kebab(file));
  });

  it.each(commands.filter(isKey))('%s.ts calls the SDK method of its name', (key) => {
    expect(read(`cli/src/commands/${key}.ts`)).toMatch(new RegExp(`(client|ctx)\\.${key}\\(`));
  });

  it('a command calling a route is named after it (a second call may only be of sports, me or entries)', () => {
    for (const file of commands.filter((f) => !isKey(f))) {
      const calls = [...read(`cli/src/commands/${file}.ts`).matchAll(/client\.(\w+)\(/g)].map((m) => m[1] as string);
      expect(
        calls.filter((c) => isKey(c) && !['sports', 'me', 'entries'].includes(c)),
        file,
      ).toEqual([]);
    }
  });

  it('each deprecated name points at a command, and is none itself', () => {
    const names = commands.map(kebab);
    for (const [old, name] of DEPRECATED_COMMANDS) {
      const [parent, sub] = name.split(' ');
      const [oldParent, oldSub] = old.split(' ');
      if (sub === undefined) {
        expect(names, name).toContain(name);
        expect(names, old).not.toContain(old);
      } else {
        expect(oldParent, old).toBe(parent);
        expect(commandNames(parent as string), name).toContain(sub);
        expect(commandNames(parent as string), old).not.toContain(oldSub);
      }
    }
  });
});

describe('MCP tools (server/src/mcp/tools/)', () => {
  it('are the ones the contract lists, in its order', () => {
    expect(TOOLS.map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
  });

  it.each(MCP_TOOL_NAMES)('%s: its file is its name in camelCase, calling the routes it answers from', (tool) => {
    const text = read(`server/src/mcp/tools/${camel(tool)}.ts`);
    expect(text).toContain(`name: '${tool}'`);
    const calls = [...new Set([...text.matchAll(/api\.(\w+)\(/g)].map((m) => m[1]))].sort();
    expect(calls).toEqual([...TOOL_ROUTES[tool]].sort());
  });
});

describe('webhook events', () => {
  const eventSchemas = Object.entries(contractModule).filter(
    ([name, value]) =>
      name.endsWith('EventSchema') &&
      typeof (value as { shape?: { type?: { value?: unknown } } }).shape?.type?.value === 'string',
  ) as [string, { shape: { type: { value: string } } }][];

  it('each subscribable type has one body schema, named after it', () => {
    for (const type of WEBHOOK_EVENT_TYPES) {
      const named = eventSchemas.filter(([, s]) => s.shape.type.value === type).map(([name]) => name);
      const expected = `${camel(type.replace('.', '_')).replace(/^./, (c) => c.toUpperCase())}EventSchema`;
      expect(named, type).toEqual([expected]);
    }
  });
});
