/**
 * The two books: where each is fetched from (one request per part) and how it is parsed. Also
 * `@propsfeed/server/books` (workspace only), for the benchmarks: the adapters, the slate they
 * parse into, and how a player is keyed across books.
 */
import { type Book, SPORT_IDS } from '@propsfeed/contract';
import { parsePrizePicks, prizePicksUrl } from './prizepicks';
import type { ParseResult } from './types';
import { parseUnderdog, underdogUrl } from './underdog';

export { playerKey } from './names';
export { newSlateLine, type ParseResult, type SlateGame, type SlateLine } from './types';

export interface BookAdapter {
  book: Book;
  /** The site a browser would be on when it calls the feed. */
  origin: string;
  /** One request per part: PrizePicks per league, Underdog all sports at once. */
  requests(baseUrl: string): { part: string; url: string }[];
  parse(payload: unknown): ParseResult;
}

export const ADAPTERS: Record<Book, BookAdapter> = {
  prizepicks: {
    book: 'prizepicks',
    origin: 'https://app.prizepicks.com',
    requests: (base) => SPORT_IDS.map((sport) => ({ part: sport, url: prizePicksUrl(base, sport) })),
    parse: parsePrizePicks,
  },
  underdog: {
    book: 'underdog',
    origin: 'https://underdogfantasy.com',
    requests: (base) => [{ part: 'all', url: underdogUrl(base) }],
    parse: parseUnderdog,
  },
};
