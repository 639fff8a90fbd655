// A TypeScript ES module consumer of the packed @propsfeed/sdk (NodeNext), type-checked by package.test.ts.
import {
  type Game,
  PermissionError,
  type PropsApi,
  PropsFeed,
  PropsFeedError,
  RateLimitError,
  type ScanRow,
} from '@propsfeed/sdk';

const client: PropsApi = new PropsFeed({ apiKey: 'pf_x', baseUrl: 'http://127.0.0.1:8787', maxRetries: 1 });

export async function consume(): Promise<string[]> {
  const games = await client.games({ sport: 'nba' });
  const first: Game | undefined = games.games[0];
  const state: 'pre' | 'live' | 'final' | undefined = first?.state;
  // @ts-expect-error: a game's state is pre, live or final
  const notAState: Game['state'] = 'halftime';
  const scan = await client.scan({ stat: 'points', limit: 20 });
  const rows: ScanRow[] = scan.rows;
  const over: number | undefined = rows[0]?.overOdds;
  // @ts-expect-error: not a sport id
  await client.games({ sport: 'cricket' });
  // @ts-expect-error: `line` is a number
  const wrong: string = rows[0]!.line;
  try {
    await client.me();
  } catch (err) {
    if (err instanceof PermissionError) return [err.requiredTier ?? ''];
    if (err instanceof RateLimitError) return [String(err.retryAfter)];
    if (err instanceof PropsFeedError) return [err.code, String(err.status)];
  }
  const raw = await new PropsFeed().raw.sports();
  if (raw.status === 200) return raw.body.sports.map((s) => s.id);
  return [first?.id ?? '', String(over), wrong, state ?? '', notAState];
}
