/**
 * `pnpm bench:board`: the board routes (and the edges board) against the core routes that read the same board,
 * measured in the same run on loopback. A child process serves the app over the seeded
 * simulator (line history and game logs replayed into SQLite, as `props serve` does) with an
 * enterprise key; this process drives each target in turn with wrk, in interleaved
 * rounds, and prints req/s, p50/p99 and the ratios.
 */
import { fileURLToPath } from 'node:url';
import { buildSimApp } from '@propsfeed/server/test-kit';
import Fastify from 'fastify';
import { benchPlan, describePlan, type GoalRow, measureAll, printGoals, printResults, type Target } from './measure';
import { startBenchServer } from './process';

const PLAN = benchPlan(3, 3);

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

async function drive(): Promise<void> {
  const { stop, firstLine, pinned, probe } = await startBenchServer(fileURLToPath(import.meta.url), ['--serve']);
  const { api, bareFastify, key } = JSON.parse(firstLine) as { api: string; bareFastify: string; key: string };
  const v1 = `${api}/api/v1`;
  try {
    const auth = { authorization: `Bearer ${key}` };
    const targets: Target[] = [
      { name: 'bare Fastify, small JSON', url: `${bareFastify}/small` },
      { name: 'GET /games (core)', url: `${v1}/games?sport=nba` },
      { name: 'GET /props?limit=12 (core)', url: `${v1}/props?sport=nba&limit=12` },
      { name: 'GET /props?limit=50 (core)', url: `${v1}/props?sport=nba&limit=50` },
      { name: 'GET /props/player', url: `${v1}/props/player?name=shawn%20watkins` },
      { name: 'GET /context/player', url: `${v1}/context/player?name=shawn%20watkins` },
      { name: 'GET /props/movement?limit=50', url: `${v1}/props/movement?sport=nba&limit=50` },
      { name: 'GET /props/history', url: `${v1}/props/history?eventId=pp_10016885&player=shawn%20watkins&stat=pra` },
      { name: 'GET /props?limit=500 (core)', url: `${v1}/props?sport=nba&limit=500` },
      { name: 'GET /props/edges?limit=500', url: `${v1}/props/edges?sport=nba&limit=500` },
    ];
    const results = await measureAll(
      targets.map((t) => ({ ...t, headers: auth })),
      PLAN,
      probe,
    );
    console.log(`\npropsfeed board routes: ${describePlan(PLAN, pinned)}, seeded simulator\n`);
    printResults(results, 32);
    // The board routes that read the board should keep up with core routes of a like size
    // (Shawn Watkins' rows; movement's 50 movers against 50 scan rows). Probabilities and
    // edges are computed when the board changes, so the sorted board is a prefix like a scan.
    const rows: GoalRow[] = [
      ['/props/player ÷ /props?limit=12', 'GET /props/player', 'GET /props?limit=12 (core)', 0.8],
      ['/context/player ÷ /games', 'GET /context/player', 'GET /games (core)', 0.8],
      ['/props/movement ÷ /props?limit=50', 'GET /props/movement?limit=50', 'GET /props?limit=50 (core)', 0.8],
      ['/props/history ÷ /games', 'GET /props/history', 'GET /games (core)', 0.8],
      ['/props/edges?limit=500 ÷ /props?limit=500', 'GET /props/edges?limit=500', 'GET /props?limit=500 (core)', 0.8],
    ];
    printGoals(results, rows, 44);
  } finally {
    await stop();
  }
}

if (process.argv.includes('--serve')) await serve();
else await drive();
