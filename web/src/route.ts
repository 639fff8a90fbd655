/** Which view shows, from the address's #fragment: #/board/nba, #/prop/…, #/record, #/key. */
import { signal } from '@preact/signals';

export type Route =
  | { view: 'board'; sport?: string }
  | { view: 'prop'; sport: string; eventId: string; stat: string; player: string }
  | { view: 'record' }
  | { view: 'key' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[0] === 'prop' && parts.length === 5) {
    const [, sport = '', eventId = '', stat = '', player = ''] = parts;
    return { view: 'prop', sport, eventId, stat, player };
  }
  if (parts[0] === 'record') return { view: 'record' };
  if (parts[0] === 'key') return { view: 'key' };
  return parts[0] === 'board' && parts[1] ? { view: 'board', sport: parts[1] } : { view: 'board' };
}

export function propHref(p: { sport: string; eventId: string; stat: string; player: string }): string {
  return `#/prop/${[p.sport, p.eventId, p.stat, p.player].map(encodeURIComponent).join('/')}`;
}

export const route = signal<Route>(parseRoute(location.hash));
addEventListener('hashchange', () => {
  route.value = parseRoute(location.hash);
});
