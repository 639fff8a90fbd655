/**
 * `pnpm bench`: the API against two baselines measured in the same run, on loopback.
 * A child process runs three servers (the real app on a 6,000-row board with an enterprise
 * key, a bare Fastify route returning a small JSON, a bare Node route sending the same
 * pre-serialized 5,000-row bytes); this process drives each in turn with autocannon and
 * prints req/s, p50/p99 and the ratios against the goals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { contract, STAT_KEYS } from '@propsfeed/contract';
import { initServer } from '@ts-rest/fastify';
import Fastify from 'fastify';
import { createApp } from '../src/app';
import { KeyCache } from '../src/keys/cache';
import { issueKey } from '../src/keys/issue';
import { MemoryLimiter } from '../src/limits/memory';
import type { RouteImpl } from '../src/routes/deps';
import { openStore } from '../src/store/kyselyStore';
import { buildBoard, type PropSpec, TestBoardSource } from '../test/helpers/board';
import {
  connectionsArg,
  describePlan,
  measureAll,
  type Plan,
  printResults,
  type RoundRatio,
  roundRatio,
  type Target,
} from './measure';
import { startBenchServer } from './process';
import { registerRedisRoundTrip, type SharedBenchApp, startSharedApp } from './shared';

/** `pnpm bench --shared` also measures keyed routes on PostgreSQL + Redis (bench/shared.ts). */
const SHARED = process.argv.includes('--shared') || process.env.PROPS_BENCH_SHARED === '1';

const PLAN: Plan = {
  rounds: 5,
  roundSeconds: Number(process.env.BENCH_ROUND_SECONDS ?? 2),
  connections: connectionsArg(),
};

/** Varied props (names, lines, odds) so compression sees realistic data, from a fixed seed. */
function benchProps(gameIndex: number, n: number): PropSpec[] {
  let seed = 1 + gameIndex;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const first = ['Nikola', 'Jayson', 'Luka', 'Shai', 'Anthony', 'Stephen', 'Jalen', 'Tyrese', 'Devin', 'Donovan'];
  const last = [
    'Jokic',
    'Tatum',
    'Doncic',
    'Gilgeous',
    'Edwards',
    'Curry',
    'Brunson',
    'Haliburton',
    'Booker',
    'Mitchell',
  ];
  const stats = STAT_KEYS.nba.slice(0, 10);
  const odds = () => (rand() < 0.5 ? -100 - Math.floor(rand() * 60) : 100 + Math.floor(rand() * 40));
  return Array.from({ length: n }, (_, i) => ({
    player: `${first[i % 10]} ${last[Math.floor(i / 10) % 10]} ${gameIndex}-${Math.floor(i / 100)}`,
    stat: stats[Math.floor(rand() * stats.length)] ?? 'points',
    line: Math.floor(rand() * 400) / 10 + 0.5,
    overOdds: odds(),
    underOdds: odds(),
    team: `team-${gameIndex}-${i % 2}`,
  }));
}

interface Targets {
  api: string;
  bareFastify: string;
  bareNode: string;
  key: string;
  shared?: { api: string; key: string };
}

async function serveAll(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-bench-'));
  const store = await openStore({ PROPS_DATA_DIR: dataDir, PROPS_DATABASE_URL: undefined });
  const limiter = new MemoryLimiter({ usage: store });
  const keys = new KeyCache(store);
  await keys.start();
  const games = Array.from({ length: 12 }, (_, i) => ({
    id: `pp_${5000 + i}`,
    aliases: [`ud_${9000 + i}`],
    live: i < 2,
    startTime: new Date(Date.UTC(2026, 10, 22, 1 + i)).toISOString(),
    props: benchProps(i, 500),
  }));
  const source = new TestBoardSource(buildBoard(games));
  const app = await createApp({ store, limiter, keys, source, logLevel: 'warn' });
  const benchKey = {
    tier: 'enterprise',
    label: 'bench',
    rpm: 1_000_000_000,
    rpd: 1_000_000_000,
    scanLimit: 5000,
  } as const;
  const { created, record } = await issueKey(store, benchKey);
  keys.put(record);
  const api = await app.listen({ port: 0, host: '127.0.0.1' });

  // The baseline bytes are the API's own answer, fetched once.
  const res = await fetch(`${api}/api/v1/props?limit=5000`, { headers: { authorization: `Bearer ${created.key}` } });
  const rows = Buffer.from(await res.arrayBuffer());
  const rowsGz = gzipSync(rows);

  const bare = Fastify();
  bare.get('/small', async () => ({ ok: true, service: 'propsfeed', version: 1 }));
  // The API's own /me and /games answers (bytes and headers), replayed: what Fastify itself
  // costs to send them, so the ratio against it is the cost of the API's own code.
  let replayedGames: { headers: Record<string, string>; body: Buffer } | undefined;
  for (const [path, from] of [
    ['/replay/me', '/api/v1/me'],
    ['/replay/games', '/api/v1/games?sport=nba'],
  ] as const) {
    const answer = await fetch(`${api}${from}`, { headers: { authorization: `Bearer ${created.key}` } });
    const body = Buffer.from(await answer.arrayBuffer());
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'date', 'connection', 'keep-alive'].includes(name)) headers[name] = value;
    });
    bare.get(path, async (_request, reply) => reply.headers(headers).send(body));
    if (path === '/replay/games') replayedGames = { headers, body };
  }
  // The same /games bytes through @ts-rest/fastify (which issue 4 names) with a handler that
  // only returns them: the framework's own cost, the ceiling for the real route.
  const replay = replayedGames;
  if (replay) {
    await bare.register(async (scope) => {
      const ts = initServer();
      const games: RouteImpl<'games'> = async ({ reply }) => {
        reply.headers(replay.headers);
        return { status: 200, body: replay.body as never };
      };
      ts.registerRouter({ games: contract.games }, ts.router({ games: contract.games }, { games }), scope, {
        logInitialization: false,
        responseValidation: false,
      });
    });
  }
  const closeRoundTrip = SHARED ? await registerRedisRoundTrip(bare) : undefined;
  const bareFastify = await bare.listen({ port: 0, host: '127.0.0.1' });

  const node = createServer((req, reply) => {
    const gz = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    const headers: Record<string, string | number> = { 'content-type': 'application/json; charset=utf-8' };
    if (gz) headers['content-encoding'] = 'gzip';
    const body = gz ? rowsGz : rows;
    headers['content-length'] = body.length;
    reply.writeHead(200, headers);
    reply.end(body);
  });
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  const address = node.address();
  const bareNode = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const shared: SharedBenchApp | undefined = SHARED ? await startSharedApp(source, benchKey) : undefined;
  const targets: Targets = { api, bareFastify, bareNode, key: created.key };
  if (shared) targets.shared = { api: shared.url, key: shared.key };
  process.stdout.write(`${JSON.stringify({ targets, rowsBytes: rows.length, rowsGzBytes: rowsGz.length })}\n`);
  process.once('SIGTERM', async () => {
    await shared?.close();
    await closeRoundTrip?.();
    await app.close();
    await bare.close();
    node.close();
    keys.stop();
    await limiter.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

async function drive(): Promise<void> {
  const { child, firstLine, pinned, cpuSeconds } = await startBenchServer(fileURLToPath(import.meta.url), [
    '--serve',
    ...(SHARED ? ['--shared'] : []),
  ]);
  const {
    targets: servers,
    rowsBytes,
    rowsGzBytes,
  } = JSON.parse(firstLine) as { targets: Targets; rowsBytes: number; rowsGzBytes: number };
  const auth = { authorization: `Bearer ${servers.key}` };
  const gzip = { 'accept-encoding': 'gzip' };
  try {
    const targets: Target[] = [
      { name: 'bare Fastify, small JSON', url: `${servers.bareFastify}/small` },
      { name: 'GET /me', url: `${servers.api}/api/v1/me`, headers: auth },
      { name: 'GET /games', url: `${servers.api}/api/v1/games?sport=nba`, headers: auth },
      { name: 'bare Fastify, replayed /me', url: `${servers.bareFastify}/replay/me`, headers: auth },
      { name: 'bare Fastify, replayed /games', url: `${servers.bareFastify}/replay/games`, headers: auth },
      { name: 'ts-rest, replayed /games', url: `${servers.bareFastify}/api/v1/games?sport=nba`, headers: auth },
      { name: 'bare Node, 5,000 rows', url: `${servers.bareNode}/` },
      { name: 'GET /props?limit=5000', url: `${servers.api}/api/v1/props?limit=5000`, headers: auth },
      { name: 'bare Node, 5,000 rows gzip', url: `${servers.bareNode}/`, headers: gzip },
      {
        name: 'GET /props?limit=5000 gzip',
        url: `${servers.api}/api/v1/props?limit=5000`,
        headers: { ...auth, ...gzip },
      },
    ];
    if (servers.shared) {
      const sharedAuth = { authorization: `Bearer ${servers.shared.key}` };
      targets.push(
        { name: 'bare Fastify + Redis INCR', url: `${servers.bareFastify}/redis-roundtrip` },
        { name: 'GET /me (shared engines)', url: `${servers.shared.api}/api/v1/me`, headers: sharedAuth },
        {
          name: 'GET /games (shared engines)',
          url: `${servers.shared.api}/api/v1/games?sport=nba`,
          headers: sharedAuth,
        },
      );
    }
    const results = await measureAll(targets, PLAN, cpuSeconds);

    const pad = (s: string, n: number) => s.padEnd(n);
    console.log(`\npropsfeed API benchmark: ${describePlan(PLAN, pinned)}`);
    console.log(`5,000-row answer: ${rowsBytes} bytes plain, ${rowsGzBytes} gzip\n`);
    printResults(results, 30);
    const ratio = (target: string, baseline: string) => roundRatio(results, target, baseline);
    const ratios: Array<[string, RoundRatio, number]> = [
      ['/me ÷ bare Fastify', ratio('GET /me', 'bare Fastify, small JSON'), 0.85],
      ['/games ÷ bare Fastify', ratio('GET /games', 'bare Fastify, small JSON'), 0.85],
      ['/me ÷ bare Fastify replaying it', ratio('GET /me', 'bare Fastify, replayed /me'), 0.85],
      ['/games ÷ bare Fastify replaying it', ratio('GET /games', 'bare Fastify, replayed /games'), 0.85],
      ['/games ÷ ts-rest replaying it', ratio('GET /games', 'ts-rest, replayed /games'), 0.85],
      ['/props?limit=5000 ÷ bare Node', ratio('GET /props?limit=5000', 'bare Node, 5,000 rows'), 0.8],
      [
        '/props?limit=5000 gzip ÷ bare Node gzip',
        ratio('GET /props?limit=5000 gzip', 'bare Node, 5,000 rows gzip'),
        0.8,
      ],
    ];
    if (servers.shared) {
      ratios.push(
        ['/me shared ÷ /me embedded', ratio('GET /me (shared engines)', 'GET /me'), 0.6],
        ['/games shared ÷ /games embedded', ratio('GET /games (shared engines)', 'GET /games'), 0.6],
      );
    }
    console.log("\nratio (median of the rounds' ratios)      value   rounds        goal");
    for (const [name, { median, lo, hi }, goal] of ratios) {
      const range = `${lo.toFixed(2)}-${hi.toFixed(2)}`;
      console.log(
        `${pad(name, 40)}${median.toFixed(3).padStart(7)}   ${range.padEnd(12)}  ≥ ${goal}  ${median >= goal ? 'met' : 'NOT MET'}`,
      );
    }
    // Sending 2 MB answers keeps the load generator busier than either server, so req/s
    // alone cannot tell the two apart: their CPU per request can.
    const cpuPerRequest = (name: string) => {
      const m = results.get(name);
      return m?.serverCpu === undefined || m.rps === 0 ? undefined : m.serverCpu / m.rps;
    };
    for (const [name, ours, bare] of [
      ['CPU per request, bare Node ÷ /props', 'GET /props?limit=5000', 'bare Node, 5,000 rows'],
      ['… gzip, bare Node ÷ /props gzip', 'GET /props?limit=5000 gzip', 'bare Node, 5,000 rows gzip'],
    ] as const) {
      const [o, b] = [cpuPerRequest(ours), cpuPerRequest(bare)];
      if (o !== undefined && b !== undefined && o > 0) {
        console.log(`${pad(name, 40)}${(b / o).toFixed(3).padStart(7)}  (context)`);
      }
    }
    if (servers.shared) {
      // Context for the shared-engine goal: what one Redis round trip per request costs here.
      const roundTrip = ratio('bare Fastify + Redis INCR', 'bare Fastify, small JSON').median;
      console.log(
        `${pad('bare Fastify + Redis INCR ÷ bare Fastify', 40)}${roundTrip.toFixed(3).padStart(7)}  (baseline)`,
      );
    }
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv.includes('--serve')) await serveAll();
else await drive();
