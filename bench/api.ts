/**
 * `pnpm bench`: the API against two baselines measured in the same run, on loopback.
 * A child process pinned to one CPU runs three servers (the real app on a 6,000-row board with
 * an enterprise key; bare Fastify replaying the API's /me and /games answers; bare Node sending
 * the API's big answers as the same pre-encoded bytes with the same headers); this process
 * drives each in turn with wrk on the other CPU and prints req/s, p50/p99, the server's CPU
 * and the ratios against the goals (see bench/measure.ts for when a ratio is of throughput and
 * when of CPU per request). Then `props serve` itself, its live feed at the busiest simulated
 * hour, against bare Fastify replaying its answers: its API thread's CPU per request and p99
 * against issue #40's goals (bench/serveTargets.ts, bench/serveReport.ts; `--no-serve` skips it,
 * `--serve-from <checkout>` adds another checkout's `props serve` side by side).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contract, STAT_KEYS } from '@propsfeed/contract';
import { assembleRuntime, createApp } from '@propsfeed/server';
import { issueKey, KeyCache } from '@propsfeed/server/keys';
import { MemoryLimiter } from '@propsfeed/server/limits';
import { openStore } from '@propsfeed/server/store';
import { buildBoard, type PropSpec, TestBoardSource } from '@propsfeed/server/test-kit';
import { initServer } from '@ts-rest/fastify';
import Fastify from 'fastify';
import { benchPlan, describePlan, type GoalRow, measureAll, printGoals, printResults, type Target } from './measure';
import { listenReplaying, type Recorded, startBenchServer } from './process';
import { summariseCpuProfile } from './profile';
import { printServeSection } from './serveReport';
import {
  record,
  type ServeInstance,
  type ServePairs,
  serveTargets,
  startReplay,
  startServe,
  stopServe,
} from './serveTargets';
import { registerRedisRoundTrip, type SharedBenchApp, startSharedApp } from './shared';

/** `pnpm bench --shared` also measures keyed routes on PostgreSQL + Redis (bench/shared.ts). */
const SHARED = process.argv.includes('--shared') || process.env.PROPS_BENCH_SHARED === '1';

const PLAN = benchPlan(5, 2);

/**
 * Varied props (names, lines, odds) so compression sees realistic data, from a fixed seed:
 * 50 players a game with one prop for each of 10 stats, as a busy real NBA game has.
 */
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
  return Array.from({ length: n }, (_, i) => {
    const player = Math.floor(i / stats.length);
    return {
      player: `${first[player % 10]} ${last[Math.floor(player / 10) % 10]} ${gameIndex}`,
      stat: stats[i % stats.length] ?? 'points',
      line: Math.floor(rand() * 400) / 10 + 0.5,
      overOdds: odds(),
      underOdds: odds(),
      team: `team-${gameIndex}-${player % 2}`,
    };
  });
}

/** The API's big answers, each replayed by bare Node under the same path; goals as issue #21 sets them (the rest: context). */
const BIG_ANSWERS = [
  { name: '/props?limit=5000', path: '/api/v1/props?limit=5000', encodings: ['identity', 'gzip', 'br'], goal: 0.9 },
  {
    name: '/props/player',
    path: `/api/v1/props/player?name=${encodeURIComponent('Nikola Jokic 3')}`,
    encodings: ['identity', 'gzip'],
    goal: undefined,
  },
  { name: '/games/{id}/props', path: '/api/v1/games/pp_5003/props', encodings: ['identity', 'gzip'], goal: undefined },
] as const;

type Encoding = (typeof BIG_ANSWERS)[number]['encodings'][number];

/** A scan's cost at one limit: the answer's size and how long it takes, cold and warm. */
interface ScanScale {
  limit: number;
  bytes: Record<Encoding, number>;
  /** First request after a board change (rows built and serialized), then its gzip and br. */
  coldMs: Record<Encoding, number>;
  /** Median of later requests (the prepared bytes served as they are). */
  warmMs: number;
}

const SCAN_LIMITS = [100, 1000, 5000];

/**
 * Scan answers at each limit on a freshly published board, one request at a time from inside
 * the serving process (client time included: a reading of how cost grows, not of throughput).
 */
async function scanScaling(api: string, auth: Record<string, string>, publish: () => void): Promise<ScanScale[]> {
  const out: ScanScale[] = [];
  for (const limit of SCAN_LIMITS) {
    publish();
    const url = `${api}/api/v1/props?limit=${limit}`;
    const bytes = { identity: 0, gzip: 0, br: 0 };
    const coldMs = { identity: 0, gzip: 0, br: 0 };
    for (const encoding of ['identity', 'gzip', 'br'] as const) {
      const startedAt = performance.now();
      bytes[encoding] = (await record(url, { ...auth, 'accept-encoding': encoding })).body.length;
      coldMs[encoding] = performance.now() - startedAt;
    }
    const warm: number[] = [];
    for (let i = 0; i < 21; i++) {
      const startedAt = performance.now();
      await record(url, { ...auth, 'accept-encoding': 'identity' });
      warm.push(performance.now() - startedAt);
    }
    out.push({ limit, bytes, coldMs, warmMs: warm.sort((a, b) => a - b)[10] ?? 0 });
  }
  return out;
}

interface Targets {
  scan: ScanScale[];
  api: string;
  bareFastify: string;
  bareNode: string;
  key: string;
  bytes: Record<string, number>;
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
  const runtime = assembleRuntime({ store, limiter, keys, feed: source });
  const app = await createApp(runtime, { logLevel: 'warn' });
  const benchKey = {
    tier: 'enterprise',
    label: 'bench',
    rpm: 1_000_000_000,
    rpd: 1_000_000_000,
    scanLimit: 5000,
  } as const;
  const { created, record: keyRecord } = await issueKey(store, benchKey);
  keys.put(keyRecord);
  const api = await app.listen({ port: 0, host: '127.0.0.1' });
  const auth = { authorization: `Bearer ${created.key}` };
  const scan = await scanScaling(api, auth, () => source.publish(buildBoard(games)));

  // The baselines' bytes and headers are the API's own answers, recorded once.
  const replayed = new Map<string, Recorded>();
  const bytes: Record<string, number> = {};
  for (const answer of BIG_ANSWERS) {
    for (const encoding of answer.encodings) {
      const recorded = await record(`${api}${answer.path}`, { ...auth, 'accept-encoding': encoding });
      replayed.set(`${answer.path} ${encoding}`, recorded);
      bytes[`${answer.name} ${encoding}`] = recorded.body.length;
    }
  }

  const bare = Fastify();
  bare.get('/small', async () => ({ ok: true, service: 'propsfeed', version: 1 }));
  // The API's own /me and /games answers (bytes and headers), replayed: what Fastify itself
  // costs to send them, so the ratio against it is the cost of the API's own code.
  let replayedGames: Recorded | undefined;
  for (const [path, from] of [
    ['/replay/me', '/api/v1/me'],
    ['/replay/games', '/api/v1/games?sport=nba'],
  ] as const) {
    const answer = await record(`${api}${from}`, auth);
    bare.get(path, async (_request, reply) => reply.headers(answer.headers).send(answer.body));
    if (path === '/replay/games') replayedGames = answer;
  }
  // The same /games bytes through @ts-rest/fastify (the router the API keeps) with a handler
  // that only returns them: the framework's own cost, the ceiling for the real route.
  const replay = replayedGames;
  if (replay) {
    await bare.register(async (scope) => {
      const ts = initServer();
      const router = ts.router(
        { games: contract.games },
        {
          games: async ({ reply }) => {
            reply.headers(replay.headers);
            return { status: 200, body: replay.body as never };
          },
        },
      );
      ts.registerRouter({ games: contract.games }, router, scope, {
        logInitialization: false,
        responseValidation: false,
      });
    });
  }
  const closeRoundTrip = SHARED ? await registerRedisRoundTrip(bare) : undefined;
  const bareFastify = await bare.listen({ port: 0, host: '127.0.0.1' });

  // Bare Node: the API's big answers as pre-encoded bytes with the same headers, by path and
  // the encoding wrk asks for; nothing else (no parsing, no auth, no counting).
  const { url: bareNode, server: node } = await listenReplaying((req) => {
    const accept = req.headers['accept-encoding'];
    const encoding: Encoding = accept === 'br' || accept === 'gzip' ? accept : 'identity';
    return replayed.get(`${req.url} ${encoding}`);
  });

  const shared: SharedBenchApp | undefined = SHARED ? await startSharedApp(source, benchKey) : undefined;
  const targets: Targets = { scan, api, bareFastify, bareNode, key: created.key, bytes };
  if (shared) targets.shared = { api: shared.url, key: shared.key };
  process.stdout.write(`${JSON.stringify(targets)}\n`);
  process.once('SIGTERM', async () => {
    await shared?.close();
    await closeRoundTrip?.();
    await app.close();
    await runtime.close();
    await bare.close();
    node.close();
    keys.stop();
    await limiter.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

/** `--serve-from <dir>`: also `props serve` from that checkout (e.g. a worktree of main), side by side. */
function serveFromArg(): string | undefined {
  const at = process.argv.indexOf('--serve-from');
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** `--only <text>`: only the targets whose name contains it (and the comparisons between them). */
function onlyArg(): string | undefined {
  const at = process.argv.indexOf('--only');
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function drive(): Promise<void> {
  // `--cpu-prof`: the serving child is profiled and its profile summarised at the end.
  const cpuProfDir = process.argv.includes('--cpu-prof') ? mkdtempSync(join(tmpdir(), 'propsfeed-prof-')) : undefined;
  const only = onlyArg();
  const { stop, firstLine, pinned, probe } = await startBenchServer(
    fileURLToPath(import.meta.url),
    ['--serve', ...(SHARED ? ['--shared'] : [])],
    { cpuProfDir },
  );
  const servers = JSON.parse(firstLine) as Targets;
  const auth = { authorization: `Bearer ${servers.key}` };
  // `props serve` as users run it (`--no-serve` leaves it out), and the same from another checkout.
  const serveProfDir = cpuProfDir ? mkdtempSync(join(tmpdir(), 'propsfeed-prof-serve-')) : undefined;
  const instances: ServeInstance[] = [];
  const serveFrom = serveFromArg();
  if (!process.argv.includes('--no-serve')) {
    process.stderr.write('starting props serve (feed running; settling before it is measured)\n');
    instances.push(await startServe(join(import.meta.dirname, '..'), 'props serve', { cpuProfDir: serveProfDir }));
    if (serveFrom)
      instances.push(await startServe(serveFrom, `props serve (${serveFrom.replace(/\/+$/, '').split('/').pop()})`));
  }
  const replay =
    instances.length > 0 ? await startReplay(instances.flatMap((i) => [...i.answers.values()])) : undefined;
  try {
    const targets: Target[] = [
      { name: 'bare Fastify, small JSON', url: `${servers.bareFastify}/small` },
      { name: 'GET /me', url: `${servers.api}/api/v1/me`, headers: auth },
      { name: 'GET /games', url: `${servers.api}/api/v1/games?sport=nba`, headers: auth },
      { name: 'bare Fastify, replayed /me', url: `${servers.bareFastify}/replay/me`, headers: auth },
      { name: 'bare Fastify, replayed /games', url: `${servers.bareFastify}/replay/games`, headers: auth },
      { name: 'ts-rest, replayed /games', url: `${servers.bareFastify}/api/v1/games?sport=nba`, headers: auth },
    ];
    const comparisons: GoalRow[] = [
      ['/me ÷ bare Fastify replaying it', 'GET /me', 'bare Fastify, replayed /me', 0.9],
      ['/games ÷ bare Fastify replaying it', 'GET /games', 'bare Fastify, replayed /games', 0.9],
      ['/games ÷ ts-rest replaying it', 'GET /games', 'ts-rest, replayed /games', 0.9],
    ];
    for (const answer of BIG_ANSWERS) {
      for (const encoding of answer.encodings) {
        const headers = { ...auth, 'accept-encoding': encoding };
        const ours = `GET ${answer.name} ${encoding}`;
        const bare = `bare Node, ${answer.name} ${encoding}`;
        targets.push({ name: bare, url: `${servers.bareNode}${answer.path}`, headers });
        targets.push({ name: ours, url: `${servers.api}${answer.path}`, headers });
        comparisons.push([`${answer.name} ${encoding} ÷ bare Node`, ours, bare, answer.goal]);
      }
    }
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
      comparisons.push(
        ['/me shared ÷ /me embedded', 'GET /me (shared engines)', 'GET /me', 0.6],
        ['/games shared ÷ /games embedded', 'GET /games (shared engines)', 'GET /games', 0.6],
        // Context for the shared-engine goals: what one Redis round trip per request costs here.
        [
          'bare Fastify + Redis INCR ÷ bare Fastify',
          'bare Fastify + Redis INCR',
          'bare Fastify, small JSON',
          undefined,
        ],
      );
    }
    const servePairs: ServePairs[] = [];
    if (replay) {
      instances.forEach((instance, i) => {
        const { targets: more, pairs } = serveTargets(instance, replay, i * instance.answers.size);
        targets.push(...more);
        servePairs.push({ instance, pairs });
      });
    }
    const measured = only === undefined ? targets : targets.filter((t) => t.name.includes(only));
    const results = await measureAll(measured, PLAN, probe);

    console.log(`\npropsfeed API benchmark: ${describePlan(PLAN, pinned)}`);
    console.log(
      `answers (bytes): ${Object.entries(servers.bytes)
        .map(([name, n]) => `${name} ${n}`)
        .join(', ')}\n`,
    );
    printResults(results, 60);
    console.log('\nscan answer by limit (one request at a time; cold = first request after a board change)');
    console.log(
      ['limit', 'plain B', 'gzip B', 'br B', 'cold ms', 'cold gzip ms', 'cold br ms', 'warm ms']
        .map((c) => c.padStart(13))
        .join(''),
    );
    for (const r of servers.scan) {
      const cells = [r.limit, r.bytes.identity, r.bytes.gzip, r.bytes.br].map((n) => n.toLocaleString('en-US'));
      const times = [r.coldMs.identity, r.coldMs.gzip, r.coldMs.br, r.warmMs].map((ms) => ms.toFixed(1));
      console.log([...cells, ...times].map((c) => c.padStart(13)).join(''));
    }
    printGoals(results, comparisons, 40);
    printServeSection(results, servePairs);
  } finally {
    await stop();
    await replay?.child.stop();
    for (const instance of instances) await stopServe(instance);
  }
  if (cpuProfDir) summariseCpuProfile(cpuProfDir);
  if (serveProfDir) summariseCpuProfile(serveProfDir);
}

if (process.argv.includes('--serve')) await serveAll();
else await drive();
