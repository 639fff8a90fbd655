/**
 * The four board routes over the seeded simulator (seed 20261122, clock 2026-11-22T01:00Z):
 * exact answers, which hold as long as the simulator's world does.
 */
import { MovementResponseSchema, PlayerContextResponseSchema, PlayerPropsResponseSchema } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSimApp, type SimApp } from './simSetup';

let t: SimApp;

beforeAll(async () => {
  t = await buildSimApp();
});
afterAll(() => t.close());

const get = async (url: string, key: string) => {
  const res = await t.get(url, key);
  return { status: res.statusCode, body: res.json() };
};

const METHOD = 'exponentially weighted mean of last 10 games (each game weighs 0.8× the next newer one)';

describe('board routes on the seeded simulator', () => {
  it('puts fair probabilities and an edge on pro rows, the same on every run of the seed', async () => {
    const { body } = await get('/api/v1/props/player?name=aaron%20wilsn', t.keys.pro);
    const rows = PlayerPropsResponseSchema.parse(body).rows;
    // pra: Underdog prices 29.5 (-125/+105); moved to PrizePicks' 28.5 through the logs' spread.
    expect(rows.find((r) => r.stat === 'pra')).toMatchObject({
      probabilities: [
        {
          source: 'prizepicks',
          line: 28.5,
          pOver: 0.6533,
          pUnder: 0.3467,
          method:
            'Underdog 29.5 -125/+105 de-vigged, margin 4.3 %; moved to 28.5 by normal mean 29.76 sd 3.2 cc on 11 games',
        },
        { source: 'underdog', line: 29.5, pOver: 0.5325, pUnder: 0.4675 },
      ],
      edge: {
        source: 'prizepicks',
        line: 28.5,
        side: 'over',
        probability: 0.6533,
        entry: 'prizepicks_flex_6',
        breakeven: 0.5421,
        edge: 0.1112,
      },
    });
    // threes: Underdog's integer line 4 carries a push chance from the moved Poisson.
    expect(rows.find((r) => r.stat === 'threes' && r.line === 4)?.probabilities).toMatchObject([
      { source: 'prizepicks', line: 3.5, pOver: 0.5716, pUnder: 0.4284 },
      { source: 'underdog', line: 4, pOver: 0.3762, pUnder: 0.4284, pPush: 0.1954 },
    ]);
    for (const row of rows) {
      for (const p of row.probabilities ?? []) {
        if (p.pOver === null) continue;
        expect(p.pOver + (p.pUnder ?? 0) + (p.pPush ?? 0)).toBeCloseTo(1, 10);
      }
    }
  });

  it('finds every prop of a player, with projections from the backfilled game logs', async () => {
    const { status, body } = await get('/api/v1/props/player?name=aaron%20wilsn', t.keys.pro);
    expect(status).toBe(200);
    const parsed = PlayerPropsResponseSchema.parse(body);
    expect(parsed).toMatchObject({ player: 'Aaron Wilson', count: 12, delayed: false });
    // Two games on today's board (02:00 and 11:05), board order; every stat has 10+ logged games.
    expect(parsed.rows.map((r) => `${r.eventId} ${r.stat} ${r.line} ${r.propsfeedProjection?.sampleN}`)).toEqual([
      'pp_127650 points 19.5 10',
      'pp_127650 pra 29.5 10',
      'pp_127650 pts_rebs 25.5 10',
      'pp_127650 rebounds 3 10',
      'pp_127650 steals 0.5 10',
      'pp_127650 threes 4 10',
      'pp_127660 points 22.5 10',
      'pp_127660 pra 30.5 10',
      'pp_127660 pts_rebs 26.5 10',
      'pp_127660 rebounds 4.5 10',
      'pp_127660 steals 1.5 10',
      'pp_127660 threes 3.5 10',
    ]);
    expect(parsed.rows[0]).toMatchObject({
      stat: 'points',
      line: 19.5,
      propsfeedProjection: { value: 21.13, sampleN: 10, method: METHOD, marketKey: 'nba:points' },
    });
    // The books disagree on pra (28.5 and 29.5): the consensus is the line of the book with odds.
    expect(parsed.rows.find((r) => r.stat === 'pra')).toMatchObject({
      line: 29.5,
      overOdds: -125,
      underOdds: 105,
      books: [
        { source: 'prizepicks', line: 28.5 },
        { source: 'underdog', line: 29.5, overOdds: -125, underOdds: 105 },
      ],
      propsfeedProjection: { value: 30.94, sampleN: 10, marketKey: 'nba:pra' },
    });
  });

  it('gives the context of a stat: averages, form, hit rate and the same projection', async () => {
    const { status, body } = await get('/api/v1/context/player?name=Wilson%20A&stat=pra', t.keys.pro);
    expect(status).toBe(200);
    const parsed = PlayerContextResponseSchema.parse(body);
    expect(parsed).toMatchObject({ player: 'Aaron Wilson', sport: 'nba', team: 'Minnesota Timberwolves' });
    const [pra] = parsed.stats;
    expect(pra).toMatchObject({
      stat: 'pra',
      line: 29.5,
      sampleN: 11,
      averages: { season: 31.27, last10: 31.4, last5: 31, home: 31.88, away: 29.67 },
      hitRate: 0.7273,
      propsfeedProjection: { value: 30.94, sampleN: 10, method: METHOD, marketKey: 'nba:pra' },
    });
    expect(pra?.recentForm.slice(0, 5)).toEqual([
      { date: '2026-11-21', opponent: 'Phoenix Suns', home: false, value: 30, hit: true },
      { date: '2026-11-20', opponent: 'Milwaukee Bucks', home: true, value: 31, hit: true },
      { date: '2026-11-19', opponent: 'Houston Rockets', home: true, value: 29, hit: false },
      { date: '2026-11-19', opponent: 'New York Knicks', home: false, value: 29, hit: false },
      { date: '2026-11-18', opponent: 'Portland Trail Blazers', home: true, value: 36, hit: true },
    ]);
    // The last-5 average is the mean of those five games: (30 + 31 + 29 + 29 + 36) / 5.
    expect(pra?.averages.last5).toBe(31);
  });

  it('lists the line history of a prop per book', async () => {
    const { status, body } = await get(
      '/api/v1/props/history?eventId=pp_127650&player=aaron%20wilson&stat=pra',
      t.keys.pro,
    );
    expect(status).toBe(200);
    expect(body.books).toEqual([
      {
        source: 'prizepicks',
        opening: { at: '2026-11-22T00:20:00.000Z', line: 28.5 },
        current: { at: '2026-11-22T00:20:00.000Z', line: 28.5 },
        changes: [{ at: '2026-11-22T00:20:00.000Z', line: 28.5 }],
      },
      {
        source: 'underdog',
        opening: { at: '2026-11-22T00:20:00.000Z', line: 29.5, overOdds: -125, underOdds: 105 },
        current: { at: '2026-11-22T00:20:00.000Z', line: 29.5, overOdds: -125, underOdds: 105 },
        changes: [{ at: '2026-11-22T00:20:00.000Z', line: 29.5, overOdds: -125, underOdds: 105 }],
      },
    ]);
  });

  it('ranks the movers of the replayed 40 minutes', async () => {
    const { status, body } = await get('/api/v1/props/movement?sport=nba&limit=3', t.keys.pro);
    expect(status).toBe(200);
    const parsed = MovementResponseSchema.parse(body);
    expect(parsed.movers.map((m) => [m.eventId, m.player, m.stat, m.openLine, m.currentLine, m.direction])).toEqual([
      ['pp_127650', 'Rasmus Perez II', 'points', 19.5, 18.5, 'down'],
      ['pp_127650', 'Shohei Bell', 'pra', 45.5, 46.5, 'up'],
      ['pp_127651', 'Nathan Morris', 'pts_rebs', 27.5, 26.5, 'down'],
    ]);
    // Every mover of the whole board, biggest absolute change first.
    const all = (await get('/api/v1/props/movement?sport=nba&limit=500', t.keys.pro)).body.movers as {
      change: number;
    }[];
    const sizes = all.map((m) => Math.abs(m.change));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });

  it('serves the free tier the delayed board and refuses it the pro routes', async () => {
    const { body } = await get('/api/v1/props/player?name=rasmus%20perez', t.keys.free);
    expect(body).toMatchObject({ player: 'Rasmus Perez II', delayed: true });
    // The board of 00:40 (the replay's step before now), not the one of 01:00.
    expect(body.rows.find((r: { stat: string }) => r.stat === 'points')).toMatchObject({
      line: 18.5,
      fetchedAt: Date.parse('2026-11-22T00:40:00.000Z'),
    });
    expect((await get('/api/v1/props/movement?sport=nba', t.keys.free)).status).toBe(403);
  });
});
