import { PropsFeed } from '@propsfeed/sdk';

async function main() {
  const client = new PropsFeed(); // PROPS_API_KEY, PROPS_BASE_URL
  const { rows } = await client.edges({ sport: 'nba', minEdge: 0.05, limit: 10 });
  for (const row of rows) console.log(row.player, row.stat, row.edge?.side, row.edge?.line, row.edge?.edge);
}

main();
