/**
 * The simulated upstream over HTTP on loopback: PrizePicks under /prizepicks, Underdog under
 * /underdog, each in its real wire format, at the injected clock's time.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SportId } from '@propsfeed/contract';
import { PRIZEPICKS_LEAGUES, renderPrizePicks, renderUnderdog } from './render';
import type { SimWorld } from './world';

export interface SimServer {
  prizepicksUrl: string;
  underdogUrl: string;
  close(): Promise<void>;
}

const SPORT_BY_LEAGUE = new Map(Object.entries(PRIZEPICKS_LEAGUES).map(([s, id]) => [String(id), s as SportId]));

export async function startSimServer(world: SimWorld, now: () => number, host = '127.0.0.1'): Promise<SimServer> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    let body: object | undefined;
    if (req.method === 'GET' && url.pathname === '/prizepicks/projections') {
      const sport = SPORT_BY_LEAGUE.get(url.searchParams.get('league_id') ?? '');
      body = sport ? renderPrizePicks(world, sport, now()) : { data: [], included: [] };
    } else if (
      req.method === 'GET' &&
      (url.pathname === '/underdog/v1/over_under_lines' || url.pathname === '/underdog/beta/v5/over_under_lines')
    ) {
      body = renderUnderdog(world, now());
    }
    if (!body) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const base = `http://${host}:${port}`;
  return {
    prizepicksUrl: `${base}/prizepicks`,
    underdogUrl: `${base}/underdog`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
