/** GET /props/history over hand-built line history. */
import { PropHistoryResponseSchema } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HISTORY_POINTS } from '../../src/queries/propHistory';
import { CURRENT, PAST, slateHistory } from './fixtures';
import { type BoardRoutesApp, buildBoardRoutesApp, MIN, NOW } from './setup';

let t: BoardRoutesApp;

beforeAll(async () => {
  t = await buildBoardRoutesApp({ current: CURRENT, past: PAST, history: ({ prop }) => slateHistory(prop, NOW) });
});
afterAll(() => t.close());

const iso = (ago: number) => new Date(NOW - ago).toISOString();
const HOUR = 60 * MIN;

const history = async (query: string, key: string) => {
  const res = await t.get(`/api/v1/props/history?${query}`, key);
  return { status: res.statusCode, body: res.json() };
};

describe('GET /api/v1/props/history', () => {
  it('lists every change per book, oldest first, without repeated points, with opening and current', async () => {
    const { status, body } = await history('eventId=pp_1002&player=jokic&stat=points', t.keys.pro);
    expect(status).toBe(200);
    expect(PropHistoryResponseSchema.parse(body)).toEqual({
      eventId: 'pp_1002',
      sport: 'nba',
      player: 'Nikola Jokić',
      stat: 'points',
      books: [
        {
          source: 'prizepicks',
          opening: { at: iso(6 * HOUR), line: 26.5 },
          current: { at: iso(5 * MIN), line: 27.5 },
          // Pulled 2 h ago and posted again at 27.5 90 min ago: the same point, dropped.
          changes: [
            { at: iso(6 * HOUR), line: 26.5 },
            { at: iso(3 * HOUR), line: 27.5 },
            { at: iso(30 * MIN), line: 28 },
            { at: iso(5 * MIN), line: 27.5 },
          ],
        },
        {
          source: 'underdog',
          opening: { at: iso(6 * HOUR), line: 26.5, overOdds: -115, underOdds: -105 },
          current: { at: iso(1 * HOUR), line: 27.5, overOdds: -115, underOdds: -105 },
          changes: [
            { at: iso(6 * HOUR), line: 26.5, overOdds: -115, underOdds: -105 },
            { at: iso(4 * HOUR), line: 26.5, overOdds: -120, underOdds: 100 },
            { at: iso(1 * HOUR), line: 27.5, overOdds: -115, underOdds: -105 },
          ],
        },
      ],
    });
  });

  it("accepts the other book's id for the game, a forgiving name and one book", async () => {
    const { status, body } = await history(
      'eventId=ud_9002&player=Nikola%20Jokic&stat=points&source=underdog',
      t.keys.sharp,
    );
    expect(status).toBe(200);
    expect(body.eventId).toBe('pp_1002');
    expect(body.books.map((b: { source: string }) => b.source)).toEqual(['underdog']);
    expect(body.books[0].changes).toHaveLength(3);
  });

  it('keeps the newest changes of a long history and says it is truncated', async () => {
    // pp_7007 has left the board; its history is still there.
    const { status, body } = await history('eventId=pp_7007&player=old%20timer&stat=points', t.keys.pro);
    expect(status).toBe(200);
    const [book] = body.books;
    expect(book.truncated).toBe(true);
    expect(book.changes).toHaveLength(MAX_HISTORY_POINTS);
    expect(book.opening).toEqual({ at: iso(10 * HOUR), line: 10.5 });
    expect(book.current).toEqual({ at: iso(10 * HOUR - 599_000), line: 11.5 });
    expect(book.changes[0]).toEqual({ at: iso(10 * HOUR - 100_000), line: 10.5 });
    expect(book.changes.at(-1)).toEqual(book.current);
  });

  it('answers 404 for an unknown game and for a player or stat without history there', async () => {
    expect(await history('eventId=pp_424242&player=jokic&stat=points', t.keys.pro)).toEqual({
      status: 404,
      body: { error: 'event_not_found', message: 'no game has the id pp_424242' },
    });
    const noPlayer = await history('eventId=pp_1002&player=wembanyama&stat=points', t.keys.pro);
    expect(noPlayer.status).toBe(404);
    expect(noPlayer.body.error).toBe('not_found');
    expect((await history('eventId=pp_1002&player=jokic&stat=assists', t.keys.pro)).status).toBe(404);
  });

  it('refuses what the tier does not include', async () => {
    expect(await history('eventId=pp_1002&player=jokic&stat=points', t.keys.free)).toEqual({
      status: 403,
      body: { error: 'route_not_in_tier', message: expect.any(String), requiredTier: 'pro' },
    });
    const live = await history('eventId=pp_1001&player=miles%20bridges&stat=points', t.keys.pro);
    expect(live.status).toBe(403);
    expect(live.body).toMatchObject({ error: 'live_not_in_tier', requiredTier: 'sharp' });
    expect((await history('eventId=pp_1001&player=miles%20bridges&stat=points', t.keys.sharp)).status).toBe(200);
    const nhl = await history('eventId=pp_3001&player=mcdavid&stat=points', t.keys.pro);
    expect(nhl.body).toMatchObject({ error: 'sport_not_in_tier', requiredTier: 'sharp' });
  });

  it('refuses malformed parameters', async () => {
    expect((await history('eventId=xx_1&player=jokic&stat=points', t.keys.pro)).status).toBe(400);
    expect((await history('eventId=pp_1002&stat=points', t.keys.pro)).status).toBe(400);
    expect((await history('eventId=pp_1002&player=jokic&stat=points&source=fanduel', t.keys.pro)).status).toBe(400);
    const badStat = await history('eventId=pp_1002&player=jokic&stat=strikeouts', t.keys.pro);
    expect(badStat.body).toMatchObject({ error: 'invalid_request' });
  });
});
