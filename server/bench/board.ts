/**
 * `pnpm bench:board`: the four board routes against the core routes that read the same board,
 * measured in the same run on loopback. A child process serves the app over the seeded
 * simulator (line history and game logs replayed into SQLite, as `props serve` does) with an
 * enterprise key; this process drives each target in turn with autocannon, in interleaved
 * rounds, and prints req/s, p50/p99 and the ratios.
 */
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildSimApp } from '../test/board-routes/simSetup';
import { startBenchServer } from './process';

const ROUND_S = Number(process.env.BENCH_ROUND_SECONDS ?? 2.5);
const ROUNDS = 3;
const CONNECTIONS = 10;

async function serve(): Promise<void> {
  const sim = await buildSimApp();
  const key = await sim.createKey({ tier: 'enterprise', rpm: 1_000_000_000, rpd: 1_000_000_000, scanLimit: 5000 });
  const api = await sim.app.listen({ port: 0, host: '127.0.0.1' });
  const bare = Fastify();
  bare.get('/small', async () => ({ ok: true, service: 'propsfeed', version: 1 }));
  const bareFastify = await bare.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ api, bareFastify, key })}\n`);
  process.once('SIGTERM', async () => {
    await bare.close();
    await sim.close();
    process.exit(0);
  });
}

interface Target {
  name: string;
  url: string;
}
interface Measured {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function measureAll(targets: Target[], headers: Record<string, string>): Promise<Map<string, Measured>> {
  const samples = new Map<string, Measured[]>(targets.map((t) => [t.name, []]));
  for (const t of targets) await autocannon({ url: t.url, connections: CONNECTIONS, duration: 1, headers });
  for (let round = 1; round <= ROUNDS; round++) {
    for (const t of targets) {
      const r = await autocannon({ url: t.url, connections: CONNECTIONS, duration: ROUND_S, headers });
      samples
        .get(t.name)
        ?.push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors });
    }
    process.stderr.write(`  round ${round}/${ROUNDS} done\n`);
  }
  return new Map(
    [...samples].map(([name, ms]) => [
      name,
      {
        rps: median(ms.map((m) => m.rps)),
        p50: median(ms.map((m) => m.p50)),
        p99: median(ms.map((m) => m.p99)),
        non2xx: ms.reduce((n, m) => n + m.non2xx, 0),
      },
    ]),
  );
}

async function drive(): Promise<void> {
  const { child, firstLine, pinned } = await startBenchServer(fileURLToPath(import.meta.url), ['--serve']);
  const { api, bareFastify, key } = JSON.parse(firstLine) as { api: string; bareFastify: string; key: string };
  const v1 = `${api}/api/v1`;
  try {
    const targets: Target[] = [
      { name: 'bare Fastify, small JSON', url: `${bareFastify}/small` },
      { name: 'GET /games (core)', url: `${v1}/games?sport=nba` },
      { name: 'GET /props?limit=12 (core)', url: `${v1}/props?sport=nba&limit=12` },
      { name: 'GET /props?limit=50 (core)', url: `${v1}/props?sport=nba&limit=50` },
      { name: 'GET /props/player', url: `${v1}/props/player?name=aaron%20wilson` },
      { name: 'GET /context/player', url: `${v1}/context/player?name=aaron%20wilson` },
      { name: 'GET /props/movement?limit=50', url: `${v1}/props/movement?sport=nba&limit=50` },
      { name: 'GET /props/history', url: `${v1}/props/history?eventId=pp_127650&player=aaron%20wilson&stat=pra` },
    ];
    const results = await measureAll(targets, { authorization: `Bearer ${key}` });
    const rps = (name: string) => results.get(name)?.rps ?? 0;
    const num = (n: number, d = 0) => n.toFixed(d).padStart(9);
    console.log(
      `\npropsfeed board routes: ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${ROUND_S} s per target (medians), loopback, seeded simulator${pinned ? ', server and load generator pinned to separate CPUs' : ''}`,
    );
    console.log(
      `\n${'target'.padEnd(32)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'non-2xx'.padStart(9)}`,
    );
    for (const [name, m] of results) {
      console.log(`${name.padEnd(32)}${num(m.rps)}${num(m.p50, 1)}${num(m.p99, 1)}${num(m.non2xx)}`);
    }
    // The board routes that read the board should keep up with core routes of a like size
    // (Aaron Wilson has 12 rows; movement's 50 movers against 50 scan rows).
    const ratios: Array<[string, number]> = [
      ['/props/player ÷ /props?limit=12', rps('GET /props/player') / rps('GET /props?limit=12 (core)')],
      ['/context/player ÷ /games', rps('GET /context/player') / rps('GET /games (core)')],
      ['/props/movement ÷ /props?limit=50', rps('GET /props/movement?limit=50') / rps('GET /props?limit=50 (core)')],
      ['/props/history ÷ /games', rps('GET /props/history') / rps('GET /games (core)')],
    ];
    console.log('\nratio                                        value');
    for (const [name, value] of ratios) console.log(`${name.padEnd(44)}${value.toFixed(2).padStart(6)}`);
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv.includes('--serve')) await serve();
else await drive();
