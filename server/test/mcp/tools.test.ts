/**
 * The twelve tools, three resources and two prompts against a fixture PropsApi, through the
 * SDK's own HTTP handler in-process, by the official v2 client on the current revision
 * (2026-07-28): shapes, text, errors.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type CallToolResult, createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { type PropsApi, SPORT_IDS } from '@propsfeed/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createPropsMcpServer } from '../../src/mcp/server';
import { createFixtureApi } from './fixture-api';

const open: { client: Client; handler: McpHttpHandler }[] = [];
afterEach(async () => {
  for (const { client, handler } of open.splice(0)) {
    await client.close();
    await handler.close();
  }
});

async function connect(api: PropsApi, onUnexpected?: (err: unknown, tool: string) => void): Promise<Client> {
  const handler = createMcpHandler(() => createPropsMcpServer(api, { onUnexpected: onUnexpected ?? (() => {}) }));
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  open.push({ client, handler });
  return client;
}

const free = () => createFixtureApi({ tier: 'free', sports: ['nba'] });
const pro = () => createFixtureApi({ tier: 'pro', sports: ['nba', 'mlb'] });

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  const text = first?.type === 'text' ? first.text : '';
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of the tool it called
  return { result, text, data: result.structuredContent as Record<string, any> | undefined };
}

describe('tool list', () => {
  it('lists the twelve tools, each described, with input and output schemas', async () => {
    const client = await connect(free());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'evaluate_slip',
      'find_edges',
      'find_game',
      'find_player_props',
      'get_game_props',
      'get_player_context',
      'get_prop_history',
      'get_track_record',
      'list_games',
      'list_sports',
      'scan_movers',
      'scan_props',
    ]);
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(100);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      for (const [param, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${param}`).toBeTruthy();
      }
    }
    const history = tools.find((t) => t.name === 'get_prop_history');
    expect(history?.description).toContain('pro tier');
    expect(history?.inputSchema.required).toEqual(expect.arrayContaining(['eventId', 'player', 'stat']));
  });
});

describe('each tool', () => {
  it('list_sports: every sport with enabled per tier', async () => {
    const { result, text, data } = await call(await connect(free()), 'list_sports');
    expect(result.isError).toBeFalsy();
    expect(data?.sports).toHaveLength(SPORT_IDS.length);
    expect(text.split('\n')[0]).toMatch(/^ID\s+NAME\s+ENABLED$/);
    expect(text).toMatch(/nba\s+NBA Basketball\s+yes/);
    expect(text).toMatch(/mlb\s+MLB Baseball\s+no/);
    expect(text).toMatch(/wnba\s+WNBA Basketball\s+no/);
  });

  it('list_games: live first, matchup and LIVE with the clock in the table', async () => {
    const { text, data } = await call(await connect(free()), 'list_games');
    expect(data?.games.map((g: { id: string }) => g.id)).toEqual(['ud_2002', 'pp_1001']);
    expect(text).toContain('2 nba games today (delayed data)');
    expect(text).toMatch(
      /ud_2002\s+Golden State Warriors @ New York Knicks\s+2026-11-22 17:30Z\s+LIVE Q3 4:12\s+underdog/,
    );
  });

  it('get_game_props: the filtered props, with live count and clock for a live game', async () => {
    const client = await connect(pro());
    const { text, data } = await call(client, 'get_game_props', { eventId: 'ud_2002', stats: ['points', 'pra'] });
    expect(data?.props).toHaveLength(12);
    expect(text.split('\n')[0]).toContain('Golden State Warriors @ New York Knicks (ud_2002, nba)');
    expect(text).toMatch(/PLAYER\s+STAT\s+LINE\s+OVER\s+UNDER\s+BOOKS\s+NOW\s+CLOCK/);
    expect(text).toMatch(/Knicks Player 1\s+points\s+10.5\s+-115\s+-105\s+2\s+0\s+Q3 4:12/);
    expect(text).not.toContain('showing');
  });

  it('get_game_props: an unknown game is a tool error from the API', async () => {
    const { result, text } = await call(await connect(pro()), 'get_game_props', { eventId: 'pp_999' });
    expect(result.isError).toBe(true);
    expect(text).toContain('no props for event pp_999 (error: event_not_found)');
  });

  it('scan_props: caps the text at 50 rows and says how to narrow; structured content has every row', async () => {
    const { text, data } = await call(await connect(free()), 'scan_props', { limit: 5000 });
    expect(data?.rows).toHaveLength(60);
    const lines = text.split('\n');
    expect(lines[0]).toBe('60 nba props');
    expect(lines).toHaveLength(1 + 1 + 50 + 1);
    expect(lines.at(-1)).toBe('showing 50 of 60; narrow with stat/limit');
  });

  it('scan_props: asks the API to sort and keep to minBooks (the server shapes the whole slate)', async () => {
    const api = free();
    const asked: unknown[] = [];
    const spy = new Proxy(api, {
      get: (target, name) =>
        name === 'scan'
          ? (params: Parameters<PropsApi['scan']>[0]) => {
              asked.push(params);
              return target.scan(params);
            }
          : target[name as keyof PropsApi],
    });
    await call(await connect(spy), 'scan_props', { sort: 'line', minBooks: 2, limit: 8 });
    expect(asked).toEqual([{ sport: 'nba', stat: undefined, limit: 8, sort: 'line', minBooks: 2 }]);
  });

  it('scan_props: defaults to 50 rows, and filters by stat', async () => {
    const client = await connect(free());
    const first = await call(client, 'scan_props');
    expect(first.data?.rows).toHaveLength(50);
    expect(first.text.split('\n')[0]).toBe(
      "50 of 60 nba props; limit and the tier's scanLimit cap the rows, stat narrows them",
    );
    const { text, data } = await call(client, 'scan_props', { stat: 'points' });
    expect(data?.rows).toHaveLength(12);
    expect(text.split('\n')[0]).toBe('12 nba points props');
    expect(text).toMatch(
      /LeBron James\s+points\s+10.5\s+-115\s+-105\s+2\s+-\s+Boston Celtics @ Los Angeles Lakers\s+pp_1001/,
    );
  });

  it('find_game: abbreviations, nicknames, typos and both teams', async () => {
    const client = await connect(free());
    const ids = async (team: string) =>
      (await call(client, 'find_game', { team })).data?.games.map((g: { id: string }) => g.id);
    expect(await ids('LAL')).toEqual(['pp_1001']);
    expect(await ids('celtcs')).toEqual(['pp_1001']);
    expect(await ids('GSW')).toEqual(['ud_2002']);
    expect(await ids('knicks')).toEqual(['ud_2002']);
    expect(await ids('Warriors @ Knicks')).toEqual(['ud_2002']);
    expect(await ids('lakers vs celtics')).toEqual(['pp_1001']);
    const { text } = await call(client, 'find_game', { team: 'lakers' });
    expect(text).toMatch(/pp_1001\s+nba\s+Boston Celtics @ Los Angeles Lakers/);
  });

  it("find_game: searches only the tier's sports, and lists today's teams when nothing matches", async () => {
    expect((await call(await connect(pro()), 'find_game', { team: 'dodgers' })).data?.games[0].id).toBe('pp_3003');
    const { result, text, data } = await call(await connect(free()), 'find_game', { team: 'dodgers' });
    expect(result.isError).toBeFalsy();
    expect(data?.sports).toEqual(['nba']);
    expect(data?.count).toBe(0);
    expect(text).toContain('No game today matches "dodgers" (searched nba). Teams playing today: Boston Celtics,');
  });

  it('find_player_props: the matched player and rows; an ambiguous name lists candidates', async () => {
    const client = await connect(free());
    const { text, data } = await call(client, 'find_player_props', { name: 'lebron' });
    expect(data?.player).toBe('LeBron James');
    expect(text.split('\n')[0]).toBe('LeBron James: 5 props');
    const ambiguous = await call(client, 'find_player_props', { name: 'Player 2' });
    expect(ambiguous.result.isError).toBe(true);
    expect(ambiguous.text).toContain('Did you mean: Knicks Player 2, Lakers Player 2?');
  });

  it('get_player_context: averages, hit rate, projection and recent form', async () => {
    const { text } = await call(await connect(free()), 'get_player_context', { name: 'LeBron James', stat: 'points' });
    expect(text).toMatch(/points\s+25.5\s+26.3\s+27.1\s+28.4\s+26\s+-\s+58%\s+12\s+27.3/);
    expect(text).toContain('points last 2: 31 O vs PHX, 22 U @ DEN');
  });

  it('get_prop_history and scan_movers answer for a pro key', async () => {
    const client = await connect(pro());
    const history = await call(client, 'get_prop_history', {
      eventId: 'pp_1001',
      player: 'LeBron James',
      stat: 'points',
    });
    expect(history.result.isError).toBeFalsy();
    expect(history.text).toContain('underdog: opened 24.5 at 2026-11-22 12:00Z, now 26.5 (2 changes)');
    const movers = await call(client, 'scan_movers', { stat: 'points', since: '2026-11-22T12:00:00Z' });
    expect(movers.data?.since).toBe('2026-11-22T12:00:00.000Z');
    expect(movers.text).toMatch(/Knicks Player 1\s+points\s+9.5\s+10.5\s+\+1\s+up/);
  });
});

describe('edges and slips', () => {
  it('find_edges lists rows best edge first; evaluate_slip prices each entry type, flagging shared games', async () => {
    const client = await connect(pro());
    const edges = await call(client, 'find_edges', { limit: 3 });
    expect(edges.result.isError).toBeFalsy();
    expect(edges.text).toMatch(
      /^\d+ of \d+ nba props? with an edge, against each book's cheapest entry type; estimates, not promises/,
    );
    expect(edges.text).toMatch(/PLAYER\s+STAT\s+BOOK\s+PICK\s+PROB\s+NEEDS\s+EDGE \(PTS\)/);
    // Each row's workings under the table, in one sentence: the blend, the chance, the breakeven.
    expect(edges.text).toMatch(
      /\nworkings:\n- [^\n]+: [^\n]+ reads market [\d.]+; mean [\d.]+ = 1 × market [\d.]+ \(0 games logged, too few to read\); [^\n]+; so (over|under) [\d.]+ at (PrizePicks|Underdog) wins [\d.]+ % of the time it does not push, against the \w+ breakeven of [\d.]+ %: edge [-+]?[\d.]+ points\./,
    );
    const slip = await call(client, 'evaluate_slip', {
      legs: [
        { player: 'LeBron James', stat: 'points', side: 'over' },
        { player: 'Jayson Tatum', stat: 'points', side: 'under' },
      ],
    });
    expect(slip.result.isError).toBeFalsy();
    // Two legs at 0.6: both win 0.36 and the 2-pick Power pays 3×, an expected 1.08.
    expect(slip.text).toMatch(/PrizePicks 2-pick Power\s+36%\s+1.08\s+57.7%\s+2:36% 1:48% 0:16%/);
    expect(slip.text).toContain('The legs are treated as independent');
    const short = await call(client, 'evaluate_slip', {
      legs: [{ player: 'LeBron James', stat: 'points', side: 'over' }],
    });
    expect(short.result.isError).toBe(true);
  });
});

describe('track record', () => {
  it('get_track_record scores the published chances, saying what the numbers do not promise', async () => {
    const client = await connect(free());
    const { result, text, data } = await call(client, 'get_track_record', { sport: 'nba' });
    expect(result.isError).toBeFalsy();
    // The fixture: over 0.62 went over, over 0.35 went over: Brier ((0.38)² + (0.65)²) / 2 = 0.2835.
    expect(text).toMatch(/^2 settled forecasts \(nba\), 0 pushes apart; Brier 0.2835 \(coin 0.25\)/);
    expect(text).toContain('not promises');
    // Which coefficients the record scores.
    expect(text).toContain('; coefficients simulated, fitted on seed 20261122, ');
    expect(text).toMatch(/60%–70%\s+1\s+62%\s+100%/);
    expect(data?.count).toBe(2);
    // The market beside ours, a row per basis (the fixture's locks carry no market price).
    expect(text).toMatch(/market \(de-vigged at lock\)\s+0/);
    expect(data?.market.count).toBe(0);
  });
});

describe('errors', () => {
  it('a pro tool with a free key is a tool error naming the tier', async () => {
    const client = await connect(free());
    for (const [name, args] of [
      ['get_prop_history', { eventId: 'pp_1001', player: 'LeBron James', stat: 'points' }],
      ['scan_movers', {}],
    ] as const) {
      const { result, text } = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(text).toContain('(error: route_not_in_tier)');
      expect(text).toContain('needs the pro tier or higher');
    }
  });

  it('a sport outside the tier names the tier', async () => {
    const { result, text } = await call(await connect(free()), 'list_games', { sport: 'mlb' });
    expect(result.isError).toBe(true);
    expect(text).toContain('sport_not_in_tier');
    expect(text).toContain('pro tier');
  });

  it('bad arguments are clear tool errors that name the parameter', async () => {
    const client = await connect(free());
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['scan_props', { limit: 0 }, /limit/],
      ['scan_props', { sport: 'cricket' }, /sport/],
      ['get_game_props', { eventId: 'game-1' }, /event id is pp_ or ud_/],
      ['get_prop_history', { eventId: 'pp_1001', player: 'LeBron James' }, /stat/],
      ['scan_movers', { since: 'yesterday' }, /since/],
    ];
    for (const [name, args, pattern] of cases) {
      const { result, text } = await call(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(text).toContain(`Invalid arguments for tool ${name}`);
      expect(text).toMatch(pattern);
    }
  });

  it('over the rate limit: a tool error saying when to retry', async () => {
    const client = await connect(createFixtureApi({ tier: 'free', sports: ['nba'], callLimit: 1 }));
    expect((await call(client, 'list_sports')).result.isError).toBeFalsy();
    const { result, text } = await call(client, 'list_sports');
    expect(result.isError).toBe(true);
    expect(text).toBe('more than 30 requests in a minute (error: rate_limited) Retry after 42 seconds.');
  });

  it('an error that is not an API answer is logged and answered without internals', async () => {
    const seen: string[] = [];
    const broken = { ...free(), sports: async () => Promise.reject(new Error('SQLITE_BUSY: database is locked')) };
    const client = await connect(broken, (err, tool) => seen.push(`${tool}: ${(err as Error).message}`));
    const { result, text } = await call(client, 'list_sports');
    expect(result.isError).toBe(true);
    expect(text).toBe('list_sports failed on an internal error (it has been logged); try again later.');
    expect(seen).toEqual(['list_sports: SQLITE_BUSY: database is locked']);
  });
});

/** Every `type` in a JSON Schema tree, with its path, where it is an array. */
function typeArrays(node: unknown, path = '$'): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => typeArrays(n, `${path}[${i}]`));
  if (node === null || typeof node !== 'object') return [];
  const own = Array.isArray((node as { type?: unknown }).type) ? [path] : [];
  return [...own, ...Object.entries(node).flatMap(([k, v]) => typeArrays(v, `${path}.${k}`))];
}

describe('schemas', () => {
  it('the current revision: the list comes in one fixed order, with a cache hint', async () => {
    const client = await connect(free());
    expect(client.getProtocolEra()).toBe('modern');
    const first = await client.listTools(undefined, { cacheMode: 'bypass' });
    const second = await client.listTools(undefined, { cacheMode: 'bypass' });
    expect(first.tools.map((t) => t.name)).toEqual(second.tools.map((t) => t.name));
    expect(first.tools[0]?.name).toBe('list_sports');
    expect(first).toMatchObject({ ttlMs: 600_000, cacheScope: 'public' });
  });

  it('writes nullable fields as anyOf of single types, never a type list', async () => {
    const { tools } = await (await connect(free())).listTools();
    for (const tool of tools) {
      expect(typeArrays(tool.inputSchema), tool.name).toEqual([]);
      expect(typeArrays(tool.outputSchema), tool.name).toEqual([]);
    }
    const playerProps = tools.find((t) => t.name === 'find_player_props');
    const outputFields = playerProps?.outputSchema?.properties as Record<string, unknown> | undefined;
    expect(outputFields?.player).toMatchObject({
      anyOf: [{ type: 'string' }, { type: 'null' }],
    });
    const scan = tools.find((t) => t.name === 'scan_props');
    expect(scan?.inputSchema.properties?.limit).toMatchObject({ type: 'integer', default: 50, maximum: 5000 });
  });
});

describe('resources', () => {
  it('lists the sports catalog, the entry tables and the track record, each read as the API answers it', async () => {
    const api = free();
    const client = await connect(api);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'propsfeed://sports',
      'propsfeed://entries',
      'propsfeed://track-record',
    ]);
    for (const r of resources) {
      expect(r.description?.length, r.uri).toBeGreaterThan(50);
      expect(r.mimeType).toBe('application/json');
    }
    const read = async (uri: string) => {
      const res = await client.readResource({ uri }, { cacheMode: 'bypass' });
      const [content] = res.contents;
      return { res, body: JSON.parse(content && 'text' in content ? content.text : 'null') };
    };
    const sports = await read('propsfeed://sports');
    expect(sports.body).toEqual(await api.sports());
    expect(sports.res).toMatchObject({ ttlMs: 600_000, cacheScope: 'private' });
    const entries = await read('propsfeed://entries');
    expect(entries.body).toEqual(await api.entries());
    expect(entries.res).toMatchObject({ cacheScope: 'public' });
    expect((await read('propsfeed://track-record')).body).toEqual(await api.trackRecord({}));
  });

  it('an unknown URI is -32602 naming it; a refused read carries the API sentence and code', async () => {
    const client = await connect(createFixtureApi({ tier: 'free', sports: ['nba'], callLimit: 0 }));
    const unknown = await client.readResource({ uri: 'propsfeed://nothing' }).catch((err) => err);
    expect(unknown).toMatchObject({ code: -32602 });
    expect(unknown.message).toContain('propsfeed://nothing');
    const refused = await client.readResource({ uri: 'propsfeed://sports' }).catch((err) => err);
    expect(refused).toMatchObject({ code: -32000, data: { error: 'rate_limited', retryAfter: 42 } });
    expect(refused.message).toContain('Retry after 42 seconds.');
  });
});

describe('prompts', () => {
  it('lists best_entry and check_player with their arguments', async () => {
    const { prompts } = await (await connect(free())).listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required ?? false])])).toEqual([
      [
        'best_entry',
        [
          ['sport', false],
          ['picks', false],
          ['book', false],
        ],
      ],
      [
        'check_player',
        [
          ['player', true],
          ['stat', false],
        ],
      ],
    ]);
  });

  it('best_entry fills in its arguments and names the tools to call; bad arguments are -32602', async () => {
    const client = await connect(free());
    const { messages } = await client.getPrompt({ name: 'best_entry', arguments: { sport: 'nba', picks: '3' } });
    const text = messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    expect(text).toContain("best 3-pick PrizePicks or Underdog entry from tonight's nba props");
    expect(text).toMatch(/find_edges[\s\S]*evaluate_slip/);
    expect(text).toContain('not promises');
    const bad = await client.getPrompt({ name: 'best_entry', arguments: { picks: '9' } }).catch((err) => err);
    expect(bad).toMatchObject({ code: -32602 });
    expect(bad.message).toContain('picks');
  });

  it('check_player names the player and stat; its sport and picks arguments complete', async () => {
    const client = await connect(free());
    const { messages } = await client.getPrompt({
      name: 'check_player',
      arguments: { player: 'LeBron James', stat: 'points' },
    });
    expect(messages[0]?.content).toMatchObject({
      type: 'text',
      text: expect.stringContaining("LeBron James's points"),
    });
    const complete = async (argument: string, value: string) =>
      (await client.complete({ ref: { type: 'ref/prompt', name: 'best_entry' }, argument: { name: argument, value } }))
        .completion.values;
    expect(await complete('sport', 'n')).toEqual(['nba', 'nfl', 'nhl', 'ncaab', 'ncaaf']);
    expect(await complete('picks', '')).toEqual(['2', '3', '4', '5', '6']);
    expect(await complete('book', 'u')).toEqual(['underdog']);
  });
});
