/** GET /props/edges and POST /slips/evaluate over the hand-built slate and game logs. */
import { EdgesResponseSchema, PROBABILITY_METHODS, SlipEvaluationSchema } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT, JOKIC_POINTS, PAST } from './fixtures';
import { type BoardRoutesApp, buildBoardRoutesApp, logsOf } from './setup';

let t: BoardRoutesApp;

beforeAll(async () => {
  t = await buildBoardRoutesApp({
    current: CURRENT,
    past: PAST,
    logs: ({ prop }) => [...logsOf(prop('Nikola Jokić', 'points'), 'nba', 'points', JOKIC_POINTS)],
  });
});
afterAll(() => t.close());

const edges = async (query: string, key = t.keys.pro) => {
  const res = await t.get(`/api/v1/props/edges${query}`, key);
  return { status: res.statusCode, body: res.json() };
};
const slip = async (legs: unknown[], key = t.keys.pro) => {
  const res = await t.inject({
    method: 'POST',
    url: '/api/v1/slips/evaluate',
    payload: { legs },
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: res.statusCode, body: res.json() };
};

// Underdog prices on the slate, de-vigged (multiplicative):
//   Jokić rebounds 12.5 at -140/+120: 0.5833 / (0.5833 + 0.4545) = 0.5620
//   Jokić pra 48.5 at -130/+110: 0.5427; the -115/-105 lines: 0.5108.
// Cheapest entry types: PrizePicks 6-pick Flex (0.5421), Underdog 5-pick Insured (0.5475).
describe('GET /api/v1/props/edges', () => {
  it('sorts the board by edge against each book cheapest entry type, ties in board order', async () => {
    const { status, body } = await edges('');
    expect(status).toBe(200);
    const parsed = EdgesResponseSchema.parse(body);
    expect(parsed).toMatchObject({ sport: 'nba', stat: null, entry: null, minEdge: null, count: 5, total: 5 });
    // What each basis means is said once per answer; the rows carry the code and their figures.
    expect(parsed.methods).toEqual(PROBABILITY_METHODS);
    const points = parsed.rows.find((r) => r.player === 'Nikola Jokić' && r.stat === 'points');
    expect(points?.probabilities?.map((p) => [p.basis, p.method])).toEqual([
      [
        'prices',
        'Underdog 27.5 -115/-105 de-vigged (margin 4.7 %) reads market 27.72; mean 27.68 = 0.98 × market 27.72 + 0.02 × season 25.76 + 0 × form 25.05 (12 games); normal mean 27.68 sd 8.08 cc; simulated coefficients',
      ],
      [
        'prices',
        'Underdog 27.5 -115/-105 de-vigged (margin 4.7 %) reads market 27.72; mean 27.68 = 0.98 × market 27.72 + 0.02 × season 25.76 + 0 × form 25.05 (12 games); normal mean 27.68 sd 8.08 cc; simulated coefficients',
      ],
    ]);
    // The live game (pp_1001) has no rows for pro. On the simulated market a priced book already
    // holds what the logs tell (docs/edges.md, "The simulated market"): Jokić's season (25.76)
    // moves the market's 27.72 only to 27.68, and his rebounds over, Underdog's -140 against
    // PrizePicks' 12.5, tops the board.
    expect(
      parsed.rows.map((r) => [r.player, r.stat, r.edge?.source, r.edge?.side, r.edge?.probability, r.edge?.edge]),
    ).toEqual([
      ['Nikola Jokić', 'rebounds', 'prizepicks', 'over', 0.562, 0.0199],
      ['Nikola Jokić', 'pra', 'prizepicks', 'over', 0.5427, 0.0006],
      ['LeBron James', 'points', 'prizepicks', 'over', 0.5108, -0.0313],
      ['Mikal Bridges', 'points', 'prizepicks', 'over', 0.5108, -0.0313],
      ['Nikola Jokić', 'points', 'prizepicks', 'over', 0.5091, -0.033],
    ]);
    // The edge's workings: the chance's own figures, then the side, the breakeven and the edge.
    expect(parsed.rows[0]?.edge).toEqual({
      source: 'prizepicks',
      line: 12.5,
      side: 'over',
      probability: 0.562,
      entry: 'prizepicks_flex_6',
      breakeven: 0.5421,
      edge: 0.0199,
      workings: `${parsed.rows[0]?.probabilities?.[0]?.method}; so over 12.5 at PrizePicks wins 56.2 % of the time it does not push, against the prizepicks_flex_6 breakeven of 54.2 %: edge +2 points.`,
    });
  });

  it('judges one entry type when asked, its book only; minEdge and limit cut the sorted list', async () => {
    const ud2 = EdgesResponseSchema.parse((await edges('?entry=underdog_standard_2')).body);
    expect(ud2.entry).toBe('underdog_standard_2');
    expect(ud2.rows.map((r) => [r.stat, r.edge?.source, r.edge?.breakeven, r.edge?.edge])).toEqual([
      ['rebounds', 'underdog', 0.5774, -0.0154],
      ['pra', 'underdog', 0.5774, -0.0347],
      ['points', 'underdog', 0.5774, -0.0666],
      ['points', 'underdog', 0.5774, -0.0666],
      ['points', 'underdog', 0.5774, -0.0683],
    ]);
    const positive = EdgesResponseSchema.parse((await edges('?minEdge=0.01')).body);
    expect(positive).toMatchObject({ count: 1, total: 1, minEdge: 0.01 });
    expect(positive.rows.map((r) => r.stat)).toEqual(['rebounds']);
    const two = EdgesResponseSchema.parse((await edges('?limit=2&stat=points')).body);
    expect(two).toMatchObject({ stat: 'points', count: 2, total: 3 });
  });

  it('refuses an unknown entry type, a malformed minEdge and a stat the sport lacks', async () => {
    const entry = await edges('?entry=prizepicks_power_9');
    expect(entry.status).toBe(400);
    expect(entry.body.message).toMatch(/^unknown entry type 'prizepicks_power_9' \(in force: prizepicks_power_2, /);
    for (const query of ['?minEdge=abc', '?minEdge=', '?minEdge=2', '?stat=strikeouts', '?limit=0']) {
      const res = await edges(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toBe('invalid_request');
    }
  });
});

describe('POST /api/v1/slips/evaluate', () => {
  it('prices a slip at the first book posting every leg, flagging legs from one game', async () => {
    const { status, body } = await slip([
      { player: 'jokic', stat: 'rebounds', side: 'over' },
      { player: 'jokic', stat: 'pra', side: 'over' },
    ]);
    expect(status).toBe(200);
    const parsed = SlipEvaluationSchema.parse(body);
    expect(parsed.book).toBe('prizepicks');
    expect(
      parsed.legs.map((l) => [l.eventId, l.player, l.stat, l.side, l.line, l.probability, l.correlatedWith]),
    ).toEqual([
      ['pp_1002', 'Nikola Jokić', 'rebounds', 'over', 12.5, 0.562, [1]],
      ['pp_1002', 'Nikola Jokić', 'pra', 'over', 48.5, 0.5427, [0]],
    ]);
    // Both legs: 0.562 × 0.5427 = 0.305; 2-pick Power pays 3×: expected 0.915.
    expect(parsed.entries).toEqual([
      {
        entry: 'prizepicks_power_2',
        name: 'PrizePicks 2-pick Power',
        kind: 'power',
        breakeven: 0.5774,
        winProbability: 0.305,
        expectedReturn: 0.915,
        hits: [
          { hits: 2, probability: 0.305, multiplier: 3 },
          { hits: 1, probability: 0.4947, multiplier: 0 },
          { hits: 0, probability: 0.2003, multiplier: 0 },
        ],
      },
    ]);
    expect(parsed.correlated).toBe(true);
    expect(parsed.assumption).toMatch(/treated as independent.*Some legs share a game/);
  });

  it('evaluates every entry type of the named book with as many picks', async () => {
    const { status, body } = await slip([
      { player: 'jokic', stat: 'rebounds', side: 'over', book: 'underdog' },
      { player: 'jokic', stat: 'pra', side: 'under', book: 'underdog' },
      { player: 'mikal bridges', stat: 'points', side: 'over', eventId: 'ud_1003' },
    ]);
    expect(status).toBe(200);
    const parsed = SlipEvaluationSchema.parse(body);
    expect(parsed.legs.map((l) => [l.probability, l.correlatedWith])).toEqual([
      [0.562, [1]],
      [0.4573, [0]],
      [0.5108, []],
    ]);
    // Hits 3/2/1/0 from the Poisson binomial of 0.562, 0.4573, 0.5108.
    const dist = [0.1313, 0.3838, 0.3686, 0.1163];
    expect(
      parsed.entries.map((e) => [e.entry, e.winProbability, e.expectedReturn, e.hits.map((h) => h.probability)]),
    ).toEqual([
      ['underdog_standard_3', 0.1313, 0.7877, dist],
      ['underdog_insured_3', 0.1313, 0.7777, dist],
    ]);
  });

  it.each([
    [
      [
        { player: 'nobody at all', stat: 'points', side: 'over' },
        { player: 'jokic', stat: 'pra', side: 'over' },
      ],
      "leg 1 (nobody at all points): no such player on today's board",
    ],
    [
      [
        { player: 'jokic', stat: 'assists', side: 'over' },
        { player: 'jokic', stat: 'pra', side: 'over' },
      ],
      'leg 1 (jokic assists): Nikola Jokić has no assists prop you can play',
    ],
    [
      [
        { player: 'miles bridges', stat: 'points', side: 'over' },
        { player: 'jokic', stat: 'pra', side: 'over' },
      ],
      'leg 1 (miles bridges points): Miles Bridges has no points prop you can play',
    ],
    [
      [
        { player: 'jokic', stat: 'pra', side: 'over', book: 'underdog' },
        { player: 'jokic', stat: 'points', side: 'over', book: 'prizepicks' },
      ],
      'the legs name different books (underdog, prizepicks); an entry is played at one book',
    ],
  ])('refuses %j: %s', async (legs, message) => {
    const { status, body } = await slip(legs);
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'invalid_request', message });
  });

  it('refuses fewer than 2 or more than 6 legs', async () => {
    const leg = { player: 'jokic', stat: 'pra', side: 'over' };
    expect((await slip([leg])).status).toBe(400);
    expect((await slip(Array(7).fill(leg))).status).toBe(400);
  });
});
