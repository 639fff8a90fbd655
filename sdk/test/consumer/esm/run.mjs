// Runs the packed SDK's ESM and CJS builds against a fake fetch; prints what each saw.
import { createRequire } from 'node:module';

const game = {
  id: 'pp_1',
  sport: 'nba',
  homeTeam: 'Denver Nuggets',
  awayTeam: 'Los Angeles Lakers',
  startTime: '2026-11-22T02:00:00.000Z',
  live: false,
  source: 'prizepicks',
};
const fetch = async (url) =>
  url.endsWith('/me')
    ? new Response(JSON.stringify({ error: 'invalid_api_key', message: 'no' }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      })
    : new Response(JSON.stringify({ sport: 'nba', count: 1, games: [game] }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });

async function check(sdk) {
  const client = new sdk.PropsFeed({ apiKey: 'pf_x', fetch });
  const games = await client.games();
  const err = await client.me().catch((e) => e);
  return { id: games.games[0].id, error: err.constructor.name, isBase: err instanceof sdk.PropsFeedError };
}

const esm = await import('@propsfeed/sdk');
const cjs = createRequire(import.meta.url)('@propsfeed/sdk');
process.stdout.write(`${JSON.stringify({ esm: await check(esm), cjs: await check(cjs), same: esm === cjs })}\n`);
