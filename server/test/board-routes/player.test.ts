/** GET /props/player and GET /context/player over a hand-built board and hand-built game logs. */
import { PlayerContextResponseSchema, PlayerPropsResponseSchema } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGameLogStore } from '../../src/history/gameLogs';
import { buildBoard } from '../helpers/board';
import { CURRENT, JOKIC_POINTS, JOKIC_REBOUNDS, PAST } from './fixtures';
import { type BoardRoutesApp, buildBoardRoutesApp, logsOf, NOW } from './setup';

let t: BoardRoutesApp;

const vucevic = buildBoard([
  { id: 'pp_9', props: [{ player: 'Nikola Vučević', team: 'Chicago Bulls', stat: 'points', line: 1 }] },
]).games[0]?.props[0];

beforeAll(async () => {
  t = await buildBoardRoutesApp({
    current: CURRENT,
    past: PAST,
    logs: ({ prop }) => [
      ...logsOf(prop('Nikola Jokić', 'points'), 'nba', 'points', JOKIC_POINTS),
      ...logsOf(prop('Nikola Jokić', 'rebounds'), 'nba', 'rebounds', JOKIC_REBOUNDS),
      // A player with logs but no prop today.
      ...logsOf(vucevic!, 'nba', 'points', [18, 20, 22, 16, 24]),
      // LeBron: 5 past games, and a final for tonight's game that the board still shows as pre-game.
      ...logsOf(prop('LeBron James', 'points'), 'nba', 'points', [20, 22, 24, 26, 28]),
      {
        ...logsOf(prop('LeBron James', 'points'), 'nba', 'points', [40])[0]!,
        date: '2026-11-22',
        opponent: 'Denver Nuggets',
      },
    ],
  });
});
afterAll(() => t.close());

const playerProps = async (query: string, key: string) => {
  const res = await t.get(`/api/v1/props/player?${query}`, key);
  return { status: res.statusCode, body: res.json() };
};

describe('GET /api/v1/props/player', () => {
  it('lists every active prop of the player as scan rows, with the projection where 5+ games are logged', async () => {
    const { status, body } = await playerProps('name=jokic', t.keys.pro);
    expect(status).toBe(200);
    const parsed = PlayerPropsResponseSchema.parse(body);
    expect(parsed).toMatchObject({ query: 'jokic', player: 'Nikola Jokić', count: 3, delayed: false });
    expect(parsed.rows.map((r) => [r.stat, r.line])).toEqual([
      ['points', 27.5],
      ['pra', 48.5],
      ['rebounds', 12.5],
    ]);
    const METHOD =
      'Underdog 27.5 -115/-105 de-vigged (margin 4.7 %) reads market 27.72; mean 27.68 = 0.98 × market 27.72 + 0.02 × season 25.76 + 0 × form 25.05 (12 games); normal mean 27.68 sd 8.08 cc; simulated coefficients';
    expect(parsed.rows[0]).toEqual({
      player: 'Nikola Jokić',
      stat: 'points',
      line: 27.5,
      overOdds: -115,
      underOdds: -105,
      bookCount: 2,
      team: 'Denver Nuggets',
      gameState: 'pre',
      books: [
        { source: 'prizepicks', line: 27.5 },
        { source: 'underdog', line: 27.5, overOdds: -115, underOdds: -105 },
      ],
      eventId: 'pp_1002',
      sport: 'nba',
      homeTeam: 'Denver Nuggets',
      awayTeam: 'Los Angeles Lakers',
      startTime: '2026-11-22T02:00:00.000Z',
      source: 'prizepicks',
      fetchedAt: NOW - 1_000,
      propsfeedProjection: {
        value: 25.05,
        sampleN: 10,
        method: 'exponentially weighted mean of last 10 games (each game weighs 0.8× the next newer one)',
        marketKey: 'nba:points',
      },
      // Underdog -115/-105: implied 0.5349 + 0.5122, the over's share 0.5108 read as a mean (27.72)
      // and blended with the logs (season 25.76, weight 0.02 beside a priced book on the simulated
      // market): mean 27.68, the over a shade likelier at both books' 27.5. Best edge: PrizePicks'
      // cheapest entry (6-pick Flex, 0.5421), short of its breakeven.
      probabilities: [
        {
          source: 'prizepicks',
          line: 27.5,
          pOver: 0.5091,
          pUnder: 0.4909,
          basis: 'prices',
          method: METHOD,
        },
        {
          source: 'underdog',
          line: 27.5,
          pOver: 0.5091,
          pUnder: 0.4909,
          basis: 'prices',
          method: METHOD,
        },
      ],
      edge: {
        source: 'prizepicks',
        line: 27.5,
        side: 'over',
        probability: 0.5091,
        entry: 'prizepicks_flex_6',
        breakeven: 0.5421,
        edge: -0.033,
        workings: `${METHOD}; so over 27.5 at PrizePicks wins 50.9 % of the time it does not push, against the prizepicks_flex_6 breakeven of 54.2 %: edge -3.3 points.`,
      },
    });
    // The free tier's rows carry no probabilities or edge.
    const free = PlayerPropsResponseSchema.parse((await playerProps('name=jokic', t.keys.free)).body);
    expect(free.rows.length).toBeGreaterThan(0);
    expect(free.rows.map((r) => [r.probabilities, r.edge])).toEqual(free.rows.map(() => [undefined, undefined]));
    // 4 logged rebounds games: no projection; no pra logs at all: none either.
    expect(parsed.rows[1]?.propsfeedProjection).toBeUndefined();
    expect(parsed.rows[2]?.propsfeedProjection).toBeUndefined();
  });

  it.each(['nikola jokič', 'NIKOLA JOKIC', 'Jokic N', 'Nikola Jokci', 'jok'])(
    'finds the player from %j',
    async (name) => {
      const { status, body } = await playerProps(`name=${encodeURIComponent(name)}`, t.keys.pro);
      expect(status).toBe(200);
      expect(body.player).toBe('Nikola Jokić');
    },
  );

  it('finds a name with a suffix without it', async () => {
    const { body } = await playerProps('name=jaren%20jackson', t.keys.sharp);
    expect(body).toMatchObject({ player: 'Jaren Jackson Jr.', count: 1 });
    expect(body.rows[0]).toMatchObject({ eventId: 'pp_1001', gameState: 'live', liveValue: 11 });
  });

  it('answers 400 listing the candidates when the name is ambiguous', async () => {
    const { status, body } = await playerProps('name=bridges', t.keys.pro);
    expect(status).toBe(400);
    expect(body).toEqual({
      error: 'invalid_request',
      message:
        "'bridges' matches more than one player: Mikal Bridges (New York Knicks, NBA); Miles Bridges (Charlotte Hornets, NBA)",
      candidates: ['Mikal Bridges (New York Knicks, NBA)', 'Miles Bridges (Charlotte Hornets, NBA)'],
    });
  });

  it('answers 200 with no rows and player null when no player matches', async () => {
    const { status, body } = await playerProps('name=wembanyama', t.keys.pro);
    expect(status).toBe(200);
    expect(body).toEqual({ query: 'wembanyama', player: null, count: 0, rows: [], delayed: false });
  });

  it('leaves live rows out for tiers without live lines', async () => {
    expect((await playerProps('name=miles%20bridges', t.keys.pro)).body).toMatchObject({
      player: 'Miles Bridges',
      count: 0,
      rows: [],
    });
    expect((await playerProps('name=miles%20bridges', t.keys.sharp)).body).toMatchObject({
      player: 'Miles Bridges',
      count: 1,
    });
  });

  it('serves the free tier the board as it stood 10 minutes ago', async () => {
    const { body } = await playerProps('name=jokic', t.keys.free);
    expect(body).toMatchObject({ player: 'Nikola Jokić', delayed: true });
    expect(body.rows[0]).toMatchObject({ stat: 'points', line: 26.5, fetchedAt: NOW - 20 * 60_000 });
  });

  it('searches only the sports of the tier, or the one named', async () => {
    expect((await playerProps('name=judge', t.keys.free)).body.player).toBeNull();
    expect((await playerProps('name=judge', t.keys.pro)).body).toMatchObject({ player: 'Aaron Judge', count: 1 });
    expect((await playerProps('name=judge&sport=nba', t.keys.pro)).body.player).toBeNull();
    expect((await playerProps('name=mcdavid', t.keys.sharp)).body.player).toBe('Connor McDavid');
  });

  it('refuses a sport outside the tier and a bad name', async () => {
    expect(await playerProps('name=judge&sport=mlb', t.keys.free)).toEqual({
      status: 403,
      body: { error: 'sport_not_in_tier', message: 'mlb is not included in the free tier', requiredTier: 'pro' },
    });
    expect((await playerProps('sport=nba', t.keys.pro)).status).toBe(400);
    expect((await playerProps('name=', t.keys.pro)).status).toBe(400);
    expect((await playerProps('name=jokic&sport=cricket', t.keys.pro)).body.error).toBe('invalid_request');
    expect((await t.get('/api/v1/props/player?name=jokic')).statusCode).toBe(401);
  });
});

const context = async (query: string, key: string) => {
  const res = await t.get(`/api/v1/context/player?${query}`, key);
  return { status: res.statusCode, body: res.json() };
};

describe('GET /api/v1/context/player', () => {
  it('averages each stat per mode and rates hits against the current line', async () => {
    const { status, body } = await context('name=jokic', t.keys.pro);
    expect(status).toBe(200);
    const parsed = PlayerContextResponseSchema.parse(body);
    expect(parsed).toMatchObject({ player: 'Nikola Jokić', sport: 'nba', team: 'Denver Nuggets' });
    expect(parsed.stats.map((s) => s.stat)).toEqual(['points', 'rebounds', 'pra']);
    const [points, rebounds, pra] = parsed.stats;
    expect(points).toMatchObject({
      stat: 'points',
      line: 27.5,
      sampleN: 12,
      // 310 / 12; the newest 10: 244 / 10; the newest 5: 123 / 5; home 156 / 6; away 154 / 6.
      averages: { season: 25.83, last10: 24.4, last5: 24.6, home: 26, away: 25.67 },
      // 30, 28, 31 and 40 beat 27.5.
      hitRate: 0.3333,
      propsfeedProjection: { value: 25.05, sampleN: 10, marketKey: 'nba:points' },
    });
    expect(points?.recentForm).toHaveLength(10);
    expect(points?.recentForm[0]).toEqual({
      date: '2026-11-20',
      opponent: 'Opponent 0',
      home: true,
      value: 30,
      hit: true,
    });
    expect(points?.recentForm[1]).toEqual({
      date: '2026-11-18',
      opponent: 'Opponent 1',
      home: false,
      value: 22,
      hit: false,
    });
    expect(rebounds).toMatchObject({
      line: 12.5,
      sampleN: 4,
      averages: { season: 11.5, last10: 11.5, last5: 11.5, home: 10.5, away: 12.5 },
      hitRate: 0.25,
    });
    expect(rebounds?.propsfeedProjection).toBeUndefined();
    expect(pra).toEqual({
      stat: 'pra',
      line: 48.5,
      sampleN: 0,
      averages: { season: null, last10: null, last5: null, home: null, away: null },
      recentForm: [],
      hitRate: null,
    });
  });

  it("rates the free tier's hits against the delayed line", async () => {
    const { body } = await context('name=jokic&stat=points', t.keys.free);
    // 30, 28, 31, 27 and 40 beat the 26.5 of 20 minutes ago.
    expect(body.stats).toHaveLength(1);
    expect(body.stats[0]).toMatchObject({ line: 26.5, hitRate: 0.4167 });
  });

  it('finds a player with logs but no prop today; the line is then null', async () => {
    const { body } = await context('name=vucevic', t.keys.pro);
    expect(body).toMatchObject({ player: 'Nikola Vučević', team: 'Chicago Bulls' });
    expect(body.stats[0]).toMatchObject({
      stat: 'points',
      line: null,
      hitRate: null,
      sampleN: 5,
      averages: { season: 20, last5: 20 },
    });
    expect(body.stats[0].recentForm[0]).toMatchObject({ value: 18, hit: null });
  });

  it("leaves a game out of the sample while the caller's board still shows it unfinished", async () => {
    const { body } = await context('name=lebron&stat=points', t.keys.pro);
    // The 40 of tonight's game (pre-game on the board) is not counted: 120 / 5.
    expect(body.stats[0]).toMatchObject({ sampleN: 5, averages: { season: 24, last5: 24 }, line: 24.5 });
    expect(body.stats[0].recentForm.map((g: { value: number }) => g.value)).toEqual([20, 22, 24, 26, 28]);
  });

  it('answers 404 for an unknown player, 400 for an ambiguous one or an unknown stat', async () => {
    expect(await context('name=wembanyama', t.keys.pro)).toEqual({
      status: 404,
      body: { error: 'not_found', message: "no player matches 'wembanyama'" },
    });
    const ambiguous = await context('name=nikola', t.keys.pro);
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.candidates).toEqual([
      'Nikola Jokić (Denver Nuggets, NBA)',
      'Nikola Vučević (Chicago Bulls, NBA)',
    ]);
    const badStat = await context('name=jokic&stat=strikeouts', t.keys.pro);
    expect(badStat.status).toBe(400);
    expect(badStat.body.message).toMatch(/^unknown stat 'strikeouts' for nba/);
    expect((await context('name=judge&sport=mlb', t.keys.free)).body.error).toBe('sport_not_in_tier');
  });

  it('gains a projection when the fifth game is logged', async () => {
    const rebounds = t.prop('Nikola Jokić', 'rebounds');
    const before = await playerProps('name=jokic', t.keys.sharp);
    expect(before.body.rows.find((r: { stat: string }) => r.stat === 'rebounds').propsfeedProjection).toBeUndefined();

    const fifth = logsOf(rebounds, 'nba', 'rebounds', [10]).map((l) => ({ ...l, date: '2026-10-01' }));
    // Written to the store as an import would be; the index catches up at its next check.
    expect(await createGameLogStore(t.db).append(fifth)).toBe(1);
    await t.boardData.gameLogs.refresh();

    const after = await playerProps('name=jokic', t.keys.sharp);
    expect(after.body.rows.find((r: { stat: string }) => r.stat === 'rebounds').propsfeedProjection).toEqual({
      // Newest first 12, 14, 9, 11, 10 weighted 1, 0.8, 0.64, 0.512, 0.4096: 38.688 / 3.3616.
      value: 11.51,
      sampleN: 5,
      method: 'exponentially weighted mean of last 5 games (each game weighs 0.8× the next newer one)',
      marketKey: 'nba:rebounds',
    });
    const ctx = await context('name=jokic&stat=rebounds', t.keys.sharp);
    expect(ctx.body.stats[0]).toMatchObject({ sampleN: 5, propsfeedProjection: { value: 11.51, sampleN: 5 } });
  });
});
