/**
 * Both adapters and the merge, end to end through startFeed: msw serves payloads in the
 * books' real wire formats; the assertions are the exact merged board.
 */
import { sql } from 'kysely';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningFeed } from '../../src/board/types';
import type { Db } from '../../src/store/db';
import { type BookFeed, startBookFeed } from './bookFeed';
import { EMPTY_PRIZEPICKS, PP_BASE, prizePicksMlbOld, prizePicksNba, UD_BASE, underdog } from './fixtures';

const seen: { url: string; headers: Headers }[] = [];
const server = setupServer(
  http.get(`${PP_BASE}/projections`, ({ request }) => {
    seen.push({ url: request.url, headers: request.headers });
    const leagueId = new URL(request.url).searchParams.get('league_id');
    return HttpResponse.json(
      leagueId === '7' ? prizePicksNba() : leagueId === '2' ? prizePicksMlbOld() : EMPTY_PRIZEPICKS,
    );
  }),
  http.get(`${UD_BASE}/v1/over_under_lines`, () => HttpResponse.json(underdog())),
);

const MIN = 60_000;

let books: BookFeed;
let db: Db;
let feed: RunningFeed;

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  books = await startBookFeed(Date.parse('2026-11-21T20:00:00Z'));
  ({ db, feed } = books);
  await vi.waitFor(() => expect(feed.current().games.length).toBe(2));
});
afterEach(() => server.resetHandlers());
afterAll(async () => {
  await books.close();
  server.close();
});

describe('merged board from both books', () => {
  it('asks each book like a browser: PrizePicks per league, Underdog once', () => {
    const leagues = seen.map((s) => new URL(s.url).searchParams.get('league_id'));
    expect(new Set(leagues)).toEqual(new Set(['7', '3', '2', '9', '8', '20', '15', '82', '121']));
    const first = seen[0] as { url: string; headers: Headers };
    expect(new URL(first.url).searchParams.get('single_stat')).toBe('true');
    expect(new URL(first.url).searchParams.get('in_game')).toBe('true');
    expect(first.headers.get('user-agent')).toMatch(/Mozilla\/5\.0/);
    expect(first.headers.get('origin')).toBe('https://app.prizepicks.com');
  });

  it('merges one game per matchup, the other book id kept as an alias', () => {
    const [nba, mlb] = feed.current().games;
    expect(nba).toMatchObject({
      id: 'pp_9001',
      aliases: ['ud_77'],
      sport: 'nba',
      homeTeam: 'Boston Celtics',
      awayTeam: 'Los Angeles Lakers',
      startTime: '2026-11-22T00:30:00.000Z',
      state: 'pre',
      live: false,
      source: 'prizepicks',
      sources: ['prizepicks', 'underdog'],
    });
    // The older PrizePicks payload does not say which side is home: Underdog's title does.
    expect(mlb).toMatchObject({
      id: expect.stringMatching(/^pp_[a-z0-9]+$/),
      aliases: ['ud_88'],
      sport: 'mlb',
      homeTeam: 'Boston Red Sox',
      awayTeam: 'New York Yankees',
      startTime: '2026-11-22T04:05:00.000Z',
    });
    expect(feed.current().gameById.get('ud_77')).toBe(nba);
  });

  it('builds exact props: consensus line, best odds, alternates and combos left out, stats mapped', () => {
    const props = (feed.current().gameById.get('pp_9001')?.props ?? []).map((p) => ({
      player: p.player,
      playerKey: p.playerKey,
      stat: p.stat,
      line: p.line,
      overOdds: p.overOdds,
      underOdds: p.underOdds,
      bookCount: p.bookCount,
      books: p.books.map((b) => [b.source, b.line, b.overOdds, b.underOdds]),
    }));
    expect(props).toEqual([
      {
        player: 'Jayson Tatum',
        playerKey: 'jayson tatum|boston celtics',
        stat: 'points',
        line: 27.5,
        overOdds: -120,
        underOdds: 100,
        bookCount: 2,
        books: [
          ['prizepicks', 27.5, undefined, undefined],
          ['underdog', 27.5, -120, 100],
        ],
      },
      {
        player: 'Jayson Tatum',
        playerKey: 'jayson tatum|boston celtics',
        stat: 'rebounds',
        line: 8.5,
        overOdds: -130,
        underOdds: undefined,
        bookCount: 1,
        books: [['underdog', 8.5, -130, undefined]],
      },
      {
        // A tie and no odds on either side: the first book's line; payout multipliers are not odds.
        player: 'LeBron James',
        playerKey: 'lebron james|los angeles lakers',
        stat: 'pra',
        line: 40.5,
        overOdds: undefined,
        underOdds: undefined,
        bookCount: 2,
        books: [
          ['prizepicks', 40.5, undefined, undefined],
          ['underdog', 41.5, undefined, undefined],
        ],
      },
      {
        // "Luka Doncic" and "Luka Dončić" are one player; on a tie the line of the book with odds.
        player: 'Luka Doncic',
        playerKey: 'luka doncic|los angeles lakers',
        stat: 'threes',
        line: 2.5,
        overOdds: -105,
        underOdds: -115,
        bookCount: 2,
        books: [
          ['prizepicks', 3.5, undefined, undefined],
          ['underdog', 2.5, -105, -115],
        ],
      },
    ]);
    const tatum = feed.current().gameById.get('pp_9001')?.props[0];
    expect(tatum).toMatchObject({ team: 'Boston Celtics', playerId: 'pp_501', gameState: 'pre' });
    expect(tatum?.photoUrl).toBe('https://static.prizepicks.com/images/players/tatum.webp');
  });

  it('merges the older-format game too', () => {
    const mlb = feed.current().games[1];
    expect(mlb?.props.map((p) => [p.player, p.stat, p.line, p.bookCount, p.overOdds])).toEqual([
      ['Gerrit Cole', 'strikeouts', 7.5, 2, -110],
      ['Rafael Devers', 'total_bases', 1.5, 1, undefined],
    ]);
  });

  it('counts malformed items and unmapped stats in health, per book', () => {
    const [pp, ud] = feed.health();
    expect(pp).toMatchObject({
      source: 'prizepicks',
      skippedItems: 1,
      unmappedStats: { 'nba:Dunks': 1 },
      errorCount: 0,
    });
    // Underdog's MLB fantasy points are left out on purpose (catalog UNSUPPORTED_STATS), not counted.
    expect(ud).toMatchObject({ source: 'underdog', skippedItems: 1 });
    expect(ud?.unmappedStats).toEqual({});
    expect(pp?.fetchedAt).toBe(Date.parse('2026-11-21T20:00:00Z'));
  });
});

describe('a restart on the same store, on the real books', () => {
  it('serves the delayed view from line history at once and records no line a second time', async () => {
    const T = Date.parse('2026-11-21T20:00:00Z');
    const rows = async () =>
      Number((await sql<{ n: number }>`select count(*) as n from line_history`.execute(db.kysely)).rows[0]?.n);
    const stored = await rows();
    expect(stored).toBeGreaterThan(0);
    const later = T + 12 * MIN;
    const restarted = await books.restart(later);
    try {
      // Before its first poll, the free tier's view (10 minutes back) is the board of T.
      const delayed = restarted.at(later - 10 * MIN);
      expect(delayed.fetchedAt).toBe(T);
      expect(delayed.games.map((g) => g.id)).toEqual(feed.current().games.map((g) => g.id));
      await vi.waitFor(() => expect(restarted.ready()).toBe(true));
      await vi.waitFor(() => expect(restarted.current().fetchedAt).toBe(later));
      // The same payloads again: nothing moved, so nothing is written and every prop keeps its time.
      expect(await rows()).toBe(stored);
      const times = restarted.current().games.flatMap((g) => g.props.flatMap((p) => p.books.map((b) => b.updatedAt)));
      expect(new Set(times)).toEqual(new Set([T]));
    } finally {
      await restarted.stop();
    }
  });
});
