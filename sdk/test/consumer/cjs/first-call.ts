import { PropsFeed } from '@propsfeed/sdk';

async function main() {
  const client = new PropsFeed(); // reads PROPS_API_KEY and PROPS_BASE_URL
  const { games } = await client.games({ sport: 'nba' });
  for (const game of games) console.log(game.id, `${game.awayTeam} @ ${game.homeTeam}`, game.state);
}

main();
