/**
 * Every keyed route of the contract with a request a sharp key may make: the auth, tier and
 * limit checks below run against each of them (unkey's common tests).
 */
import { contract, type RouteMeta } from '@propsfeed/contract';

export interface KeyedRoute {
  name: keyof typeof contract;
  url: string;
  tier: 'free' | 'pro';
}

const URLS: Record<string, string> = {
  sports: '/api/v1/sports',
  games: '/api/v1/games?sport=nba',
  gameProps: '/api/v1/games/pp_1002/props',
  scan: '/api/v1/props?limit=5',
  me: '/api/v1/me',
  playerProps: '/api/v1/props/player?name=Jokic',
  playerContext: '/api/v1/context/player?name=Jokic&sport=nba',
  propHistory: '/api/v1/props/history?eventId=pp_1002&player=Nikola%20Jokic&stat=pra',
  movement: '/api/v1/props/movement?sport=nba',
  entries: '/api/v1/entries',
};

export const KEYED_ROUTES: KeyedRoute[] = Object.entries(contract)
  .filter(([, route]) => !((route.metadata ?? {}) as RouteMeta).public)
  .map(([name, route]) => {
    const url = URLS[name];
    if (!url) throw new Error(`keyed route ${name} has no test request: add one to keyed.common.ts`);
    return { name: name as keyof typeof contract, url, tier: ((route.metadata ?? {}) as RouteMeta).tier ?? 'free' };
  });
