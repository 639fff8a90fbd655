/**
 * /mcp against clients nobody here wrote (CI, `.ci/mcp`): the official conformance suite on
 * both revisions, and the MCP Inspector's CLI listing the tools (`--strict`) and calling every
 * one, in both protocol eras, over HTTP and over `props mcp` (stdio). Both tools need
 * Node >= 22.19: run this with such a Node, `--tools <dir>` naming where they are installed.
 *
 * It starts `props serve` as a user does (the simulated books, its clock at 01:30 UTC of today,
 * when the simulator has games in play whatever the hour), with a fresh store. The suite cannot
 * send an API key, so it talks to a key-adding proxy in this process, which passes every other
 * header through as sent (its DNS-rebinding probes reach the server's guard untouched).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type ServeChild, startServeChild } from '../test/helpers/serveChild';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
const ERAS = ['legacy', 'modern'] as const;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `props serve` with a fresh store, its clock at 01:30 UTC of today: its address and enterprise demo key. */
async function startServer(dataDir: string): Promise<{ server: ServeChild; base: string; key: string }> {
  const day = new Date();
  const offset = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 1, 30) - Date.now();
  const server = await startServeChild({ PROPS_DATA_DIR: dataDir, PROPS_LOG_LEVEL: 'warn' }, true, {
    clockOffsetMs: offset,
  });
  const key = server.demoKeys().enterprise;
  if (!key) throw new Error(`props serve printed no enterprise demo key:\n${server.output()}`);
  return { server, base: server.address, key };
}

/** Forwards everything to the server as sent, adding the bearer key the conformance suite cannot send. */
function keyAddingProxy(base: string, key: string): Promise<Server> {
  const target = new URL(base);
  const proxy = createServer((req, res) => {
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        setHost: false,
        headers: { ...req.headers, authorization: `Bearer ${key}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => res.destroy(err));
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

async function getJson(base: string, path: string, key: string) {
  const res = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  // biome-ignore lint/suspicious/noExplicitAny: the script reads the few fields it needs
  return (await res.json()) as any;
}

/** One call per tool, with arguments the running board answers (two edge rows from different games). */
async function toolCalls(base: string, key: string): Promise<[string, Record<string, unknown>][]> {
  const edges = await getJson(base, '/props/edges?sport=nba&limit=200', key);
  // biome-ignore lint/suspicious/noExplicitAny: an edges row
  const rows = edges.rows.filter((r: any) => r.edge);
  const first = rows[0];
  // biome-ignore lint/suspicious/noExplicitAny: an edges row
  const second = rows.find((r: any) => r.eventId !== first?.eventId);
  if (!first || !second)
    throw new Error('the simulated board has no two NBA edges in different games to call tools with');
  const leg = (r: typeof first) => ({ player: r.player, stat: r.stat, side: r.edge.side, eventId: r.eventId });
  return [
    ['list_sports', {}],
    ['list_games', { sport: 'nba' }],
    ['get_game_props', { eventId: first.eventId, stats: [first.stat] }],
    ['scan_props', { sport: 'nba', stat: first.stat, limit: 5 }],
    ['find_game', { team: first.homeTeam }],
    ['find_player_props', { name: first.player, sport: 'nba' }],
    ['get_player_context', { name: first.player, sport: 'nba', stat: first.stat }],
    ['get_prop_history', { eventId: first.eventId, player: first.player, stat: first.stat }],
    ['scan_movers', { sport: 'nba', limit: 5 }],
    ['find_edges', { sport: 'nba', limit: 5 }],
    ['evaluate_slip', { legs: [leg(first), leg(second)] }],
    ['get_track_record', { sport: 'nba' }],
  ];
}

/** Runs the jobs, `width` at a time, in order of their results. */
async function pool<T>(width: number, jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const at = next++;
      results[at] = await (jobs[at] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return results;
}

/** Seconds since the last call, for the log: where the step's time goes. */
let lap = Date.now();
function seconds(): string {
  const now = Date.now();
  const text = `${((now - lap) / 1000).toFixed(1)} s`;
  lap = now;
  return text;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { tools: { type: 'string' } } });
  if (!values.tools)
    throw new Error(
      'usage: mcp-clients.ts --tools <folder where the conformance suite and the Inspector are installed>',
    );
  const modules = join(values.tools, 'node_modules/@modelcontextprotocol');
  const conformance = join(modules, 'conformance/dist/index.js');
  const inspector = join(modules, 'inspector/clients/launcher/build/index.js');
  const work = mkdtempSync(join(tmpdir(), 'propsfeed-mcp-clients-'));
  const failures: string[] = [];
  let started: Awaited<ReturnType<typeof startServer>> | undefined;
  let proxy: Server | undefined;
  try {
    started = await startServer(join(work, 'data'));
    const { base, key } = started;
    console.log(`props serve at ${base} (${seconds()} to start)`);
    proxy = await keyAddingProxy(base, key);
    const proxied = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;

    for (const revision of REVISIONS) {
      const expected = join(REPO, `server/scripts/mcp-conformance/${revision}.yaml`);
      const args = ['server', '--url', proxied, '--requirements', revision, '--expected-failures', expected];
      const res = await run(process.execPath, [conformance, ...args, '-o', join(work, `conformance-${revision}`)]);
      const summary = res.stdout.slice(res.stdout.indexOf('=== SUMMARY ==='));
      console.log(`\n-- conformance suite, --requirements ${revision} (${seconds()}; expected failures: ${expected})`);
      console.log(summary.trim());
      if (res.code !== 0) failures.push(`conformance ${revision}: exit ${res.code}\n${res.stderr}`);
    }

    const calls = await toolCalls(base, key);
    const env = { ...process.env, HOME: join(work, 'home') };
    const targets = {
      http: [`${base}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${key}`],
      stdio: ['-e', `PROPS_API_KEY=${key}`, '-e', `PROPS_BASE_URL=${base}`, '--cwd', REPO, process.execPath, '--'],
    };
    const stdioArgs = ['--import', 'tsx', 'cli/src/main.ts', 'mcp'];
    const inspect = (transport: 'http' | 'stdio', era: string, method: string[]) => {
      const target = transport === 'http' ? targets.http : [...targets.stdio, ...stdioArgs];
      // Options first, then the target (and after `--`, the stdio command's own arguments).
      // A generous connect timeout: a stdio start is a Node process compiling the CLI, on a busy CI machine.
      const options = ['--protocol-era', era, '--format', 'json', '--quiet', '--connect-timeout', '120000'];
      const args = [inspector, '--cli', ...method, ...options, ...target];
      return run(process.execPath, args, env);
    };
    const jobs: (() => Promise<string>)[] = [];
    for (const transport of ['http', 'stdio'] as const) {
      for (const era of ERAS) {
        jobs.push(async () => {
          const res = await inspect(transport, era, ['--method', 'tools/list', '--strict']);
          const tools = res.code === 0 ? (JSON.parse(res.stdout).result?.tools ?? []) : [];
          const warnings = (res.stderr.match(/^Warning:/gm) ?? []).length;
          const ok = res.code === 0 && tools.length === calls.length && warnings === 0;
          if (!ok)
            failures.push(
              `inspector ${transport} ${era} tools/list --strict: exit ${res.code}, ${tools.length} tools, ${warnings} warnings\n${res.stderr}${res.stdout}`,
            );
          return `${ok ? 'ok  ' : 'FAIL'} ${transport.padEnd(5)} ${era.padEnd(6)} tools/list --strict: ${tools.length} tools, ${warnings} warnings`;
        });
        for (const [tool, args] of calls) {
          jobs.push(async () => {
            const res = await inspect(transport, era, [
              '--method',
              'tools/call',
              '--tool-name',
              tool,
              '--tool-args-json',
              JSON.stringify(args),
            ]);
            const result = res.code === 0 ? JSON.parse(res.stdout).result : undefined;
            const modern = result?._meta?.['io.modelcontextprotocol/serverInfo'] !== undefined;
            const ok =
              result !== undefined &&
              !result.isError &&
              result.structuredContent !== undefined &&
              modern === (era === 'modern');
            if (!ok)
              failures.push(
                `inspector ${transport} ${era} tools/call ${tool}: exit ${res.code}\n${res.stderr}${res.stdout}`,
              );
            return `${ok ? 'ok  ' : 'FAIL'} ${transport.padEnd(5)} ${era.padEnd(6)} tools/call ${tool}`;
          });
        }
      }
    }
    const lines = await pool(3, jobs);
    console.log(
      `\n-- MCP Inspector CLI: tools/list and one tools/call per tool, both eras, HTTP and props mcp (stdio) (${seconds()})`,
    );
    for (const line of lines) console.log(line);
  } finally {
    proxy?.close();
    await started?.server.stop();
    rmSync(work, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`\n${failures.length} failure(s):\n${failures.join('\n\n')}`);
    return 1;
  }
  console.log('\nMCP clients: all passed');
  return 0;
}

process.exitCode = await main();
