import { PermissionError, PropsFeed } from '@propsfeed/sdk';

// Reads PROPS_API_KEY and PROPS_BASE_URL; or pass { apiKey, baseUrl }.
const client = new PropsFeed();

const { games } = await client.games({ sport: 'nba' });
for (const game of games) {
  // state: pre (not started), live (with the clock) or final.
  const when = game.state === 'pre' ? game.startTime : `${game.state.toUpperCase()} ${game.clock ?? ''}`.trim();
  console.log(game.id, `${game.awayTeam} @ ${game.homeTeam}`, when);
}

const scan = await client.scan({ stat: 'points', limit: 5 });
for (const row of scan.rows) {
  console.log(row.player, row.line, row.overOdds ?? '', row.underOdds ?? '', `${row.bookCount} books`);
}

const top = scan.rows[0];
if (top) {
  try {
    const history = await client.propHistory({ eventId: top.eventId, player: top.player, stat: top.stat });
    const moves = history.books.map((b) => `${b.source} ${b.opening.line} → ${b.current.line}`);
    console.log(`${top.player}: ${moves.join(', ')}`);
  } catch (err) {
    if (!(err instanceof PermissionError)) throw err;
    console.log(`Line history needs the ${err.requiredTier} tier`);
  }
}
