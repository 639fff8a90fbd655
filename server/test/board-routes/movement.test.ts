/** GET /props/movement: the current board against hand-built line history. */
import { MovementResponseSchema } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBoard, type TestBoardSource } from '../helpers/board';
import { CURRENT, PAST, slateHistory } from './fixtures';
import { type BoardRoutesApp, buildBoardRoutesApp, MIN, NOW } from './setup';

let t: BoardRoutesApp;

beforeAll(async () => {
  t = await buildBoardRoutesApp({ current: CURRENT, past: PAST, history: ({ prop }) => slateHistory(prop, NOW) });
});
afterAll(() => t.close());

const movement = async (query: string, key: string) => {
  const res = await t.get(`/api/v1/props/movement?${query}`, key);
  return { status: res.statusCode, body: res.json() };
};

type Row = { player: string; stat: string; change: number; oddsChange?: number };
const summary = (movers: Row[]) => movers.map((m) => `${m.player} ${m.stat} ${m.change} ${m.oddsChange ?? '-'}`);

describe('GET /api/v1/props/movement', () => {
  it('sorts movers by absolute change, then by odds movement, merged and per book', async () => {
    const { status, body } = await movement('sport=nba', t.keys.pro);
    expect(status).toBe(200);
    const parsed = MovementResponseSchema.parse(body);
    expect(parsed).toMatchObject({ sport: 'nba', stat: null, since: null, count: 4 });
    // Mikal Bridges never moved; the live game is not the pro tier's.
    expect(summary(parsed.movers)).toEqual([
      'LeBron James points 2 0',
      // pra and points both moved a point: pra's prices moved 20 cents more.
      'Nikola Jokić pra 1 20',
      'Nikola Jokić points 1 0',
      // The line held, the price moved from -115/-105 to -140/+120.
      'Nikola Jokić rebounds 0 25',
    ]);
    expect(parsed.movers[1]).toEqual({
      eventId: 'pp_1002',
      sport: 'nba',
      homeTeam: 'Denver Nuggets',
      awayTeam: 'Los Angeles Lakers',
      startTime: '2026-11-22T02:00:00.000Z',
      player: 'Nikola Jokić',
      stat: 'pra',
      openLine: 47.5,
      currentLine: 48.5,
      change: 1,
      direction: 'up',
      oddsChange: 20,
      books: [
        { source: 'prizepicks', openLine: 47.5, currentLine: 48.5, change: 1, direction: 'up' },
        { source: 'underdog', openLine: 47.5, currentLine: 48.5, change: 1, direction: 'up' },
      ],
    });
    expect(parsed.movers[3]).toMatchObject({ openLine: 12.5, currentLine: 12.5, change: 0, direction: 'flat' });
  });

  it('includes live games for tiers with live lines', async () => {
    const { body } = await movement('sport=nba', t.keys.sharp);
    expect(summary(body.movers)).toEqual([
      // Tied with LeBron at +2 and no odds movement: board order, live games first.
      'Miles Bridges points 2 0',
      'LeBron James points 2 0',
      'Nikola Jokić pra 1 20',
      'Nikola Jokić points 1 0',
      'Nikola Jokić rebounds 0 25',
    ]);
  });

  it('filters by stat and caps by limit', async () => {
    expect(summary((await movement('sport=nba&stat=points', t.keys.pro)).body.movers)).toEqual([
      'LeBron James points 2 0',
      'Nikola Jokić points 1 0',
    ]);
    const capped = (await movement('sport=nba&limit=2', t.keys.pro)).body;
    expect(capped.count).toBe(2);
    // The total counts every mover before the limit: four moved on the NBA board.
    expect(capped.total).toBe(4);
    expect(summary(capped.movers)).toEqual(['LeBron James points 2 0', 'Nikola Jokić pra 1 20']);
    expect((await movement('sport=mlb', t.keys.pro)).body.movers).toMatchObject([
      { player: 'Aaron Judge', stat: 'total_bases', openLine: 0.5, currentLine: 1.5, change: 1 },
    ]);
  });

  it('measures from the lines as they stood at `since`', async () => {
    const since = new Date(NOW - 20 * MIN).toISOString();
    const { status, body } = await movement(`sport=nba&since=${since}`, t.keys.pro);
    expect(status).toBe(200);
    expect(body.since).toBe(since);
    // LeBron: 23.5 at PrizePicks and 22.5 at Underdog 20 minutes ago; the book with odds breaks the tie.
    // Jokić points: 28 at PrizePicks then, 27.5 now; Underdog unmoved: the merged line is flat.
    expect(body.movers).toMatchObject([
      {
        player: 'LeBron James',
        stat: 'points',
        openLine: 22.5,
        change: 2,
        books: [
          { source: 'prizepicks', openLine: 23.5, change: 1 },
          { source: 'underdog', openLine: 22.5, change: 2 },
        ],
      },
      { player: 'Nikola Jokić', stat: 'rebounds', change: 0, oddsChange: 25 },
      {
        player: 'Nikola Jokić',
        stat: 'points',
        openLine: 27.5,
        change: 0,
        direction: 'flat',
        books: [
          { source: 'prizepicks', openLine: 28, currentLine: 27.5, change: -0.5, direction: 'down' },
          { source: 'underdog', openLine: 27.5, change: 0 },
        ],
      },
    ]);
    expect(body.count).toBe(3);
  });

  it('refuses the free tier, sports outside the tier and malformed parameters', async () => {
    expect(await movement('sport=nba', t.keys.free)).toEqual({
      status: 403,
      body: { error: 'route_not_in_tier', message: expect.any(String), requiredTier: 'pro' },
    });
    expect((await movement('sport=nhl', t.keys.pro)).body).toMatchObject({
      error: 'sport_not_in_tier',
      requiredTier: 'sharp',
    });
    for (const bad of ['limit=0', 'limit=501', 'limit=abc', 'limit=', 'since=yesterday', 'sport=cricket']) {
      const res = await movement(bad, t.keys.pro);
      expect([bad, res.status, res.body.error]).toEqual([bad, 400, 'invalid_request']);
    }
    expect((await movement('sport=nba&stat=strikeouts', t.keys.pro)).status).toBe(400);
    expect((await movement('limit=500', t.keys.pro)).status).toBe(200);
  });

  it('answers a repeated request from the same prepared bytes, with an ETag', async () => {
    const first = await t.get('/api/v1/props/movement?sport=nba', t.keys.pro);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const again = await t.get('/api/v1/props/movement?sport=nba', t.keys.pro, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
  });
});

describe('opening lines of props posted after start-up', () => {
  it('takes the first board a new prop appears on as its opening', async () => {
    const withAssists = (line: number) =>
      CURRENT.map((g) =>
        g.id === 'pp_1002'
          ? {
              ...g,
              props: [...(g.props ?? []), { player: 'Nikola Jokić', team: 'Denver Nuggets', stat: 'assists', line }],
            }
          : g,
      );
    const source = t.source as TestBoardSource;
    source.publish(buildBoard(withAssists(9.5), NOW - 500));
    source.publish(buildBoard(withAssists(10.5), NOW - 100));
    const { body } = await movement('sport=nba&stat=assists', t.keys.pro);
    expect(body.movers).toMatchObject([
      { player: 'Nikola Jokić', stat: 'assists', openLine: 9.5, currentLine: 10.5, change: 1 },
    ]);
  });
});
