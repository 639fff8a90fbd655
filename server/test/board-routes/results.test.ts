/**
 * GET /props/results and GET /props/track-record over locks and finals stored by hand: the
 * free tier sees yesterday and earlier, pro today too; the record is scored from the store.
 */
import { ResultsResponseSchema, TrackRecordResponseSchema } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGameLogStore } from '../../src/history/gameLogs';
import { createSettlementStore, type PropLock } from '../../src/history/settlement';
import type { GameLog } from '../../src/history/types';
import { CURRENT } from './fixtures';
import { type BoardRoutesApp, buildBoardRoutesApp } from './setup';

let t: BoardRoutesApp;

const lock = (over: Partial<PropLock>): PropLock => ({
  gameId: 'pp_900',
  book: 'prizepicks',
  sport: 'nba',
  playerKey: 'lebron james|los angeles lakers',
  player: 'LeBron James',
  stat: 'points',
  homeTeam: 'Denver Nuggets',
  awayTeam: 'Los Angeles Lakers',
  startMs: Date.parse('2026-11-21T02:00:00Z'),
  date: '2026-11-21',
  line: 25.5,
  pOver: 0.6,
  pUnder: 0.4,
  basis: 'prices',
  lockedAt: Date.parse('2026-11-21T02:00:05Z'),
  ...over,
});

const final = (playerKey: string, player: string, stat: string, date: string, value: number): GameLog => ({
  sport: 'nba',
  player,
  playerKey,
  team: playerKey.split('|')[1] as string,
  opponent: 'Denver Nuggets',
  home: false,
  date,
  stat,
  value,
  source: 'recorded',
});

beforeAll(async () => {
  t = await buildBoardRoutesApp({ current: CURRENT });
  await createSettlementStore(t.db).lock([
    // The market at lock: Underdog priced 25.5 at 0.55 over (de-vigged); its own 26 at 0.5; no book priced Jokić.
    lock({ marketPOver: 0.55 }),
    lock({ book: 'underdog', line: 26, pOver: 0.55, pUnder: 0.4, pPush: 0.05, marketPOver: 0.5 }),
    lock({
      gameId: 'pp_901',
      playerKey: 'nikola jokic|denver nuggets',
      player: 'Nikola Jokić',
      stat: 'rebounds',
      startMs: Date.parse('2026-11-22T00:10:00Z'),
      date: '2026-11-22',
      line: 12.5,
      pOver: 0.7,
      pUnder: 0.3,
      basis: 'distribution',
    }),
  ]);
  await createGameLogStore(t.db).append([
    final('lebron james|los angeles lakers', 'LeBron James', 'points', '2026-11-21', 26),
    final('nikola jokic|denver nuggets', 'Nikola Jokić', 'rebounds', '2026-11-22', 14),
  ]);
});
afterAll(() => t.close());

const get = async (path: string, key = t.keys.free) => {
  const res = await t.get(`/api/v1/props/${path}`, key);
  return { status: res.statusCode, body: res.json() };
};

describe('GET /api/v1/props/results', () => {
  it('free: yesterday by default, each book with its closing line, result and the chances published at lock', async () => {
    const { status, body } = await get('results');
    expect(status).toBe(200);
    expect(ResultsResponseSchema.parse(body)).toEqual({
      date: '2026-11-21',
      sport: null,
      count: 1,
      total: 1,
      results: [
        {
          eventId: 'pp_900',
          sport: 'nba',
          homeTeam: 'Denver Nuggets',
          awayTeam: 'Los Angeles Lakers',
          startTime: '2026-11-21T02:00:00.000Z',
          player: 'LeBron James',
          stat: 'points',
          finalValue: 26,
          books: [
            { source: 'prizepicks', closingLine: 25.5, result: 'over', pOver: 0.6, pUnder: 0.4, basis: 'prices' },
            {
              source: 'underdog',
              closingLine: 26,
              result: 'push',
              pOver: 0.55,
              pUnder: 0.4,
              pPush: 0.05,
              basis: 'prices',
            },
          ],
        },
      ],
    });
  });

  it("free: today's finals need pro; pro sees them by default", async () => {
    const refused = await get('results?date=2026-11-22');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'route_not_in_tier', requiredTier: 'pro' });
    const pro = await get('results', t.keys.pro);
    expect(pro.status).toBe(200);
    expect(pro.body.date).toBe('2026-11-22');
    expect(
      pro.body.results.map((r: { player: string; books: { result: string }[] }) => [r.player, r.books[0]?.result]),
    ).toEqual([['Nikola Jokić', 'over']]);
  });

  it('filters by player (forgiving of case and accents) and stat; refuses a day after today and a bad day', async () => {
    expect((await get('results?date=2026-11-21&player=LEBRON%20JAMES')).body.total).toBe(1);
    expect((await get('results?date=2026-11-21&player=nikola%20jokic')).body.total).toBe(0);
    expect((await get('results?date=2026-11-21&stat=rebounds')).body.total).toBe(0);
    const future = await get('results?date=2026-11-23', t.keys.pro);
    expect(future).toEqual({
      status: 400,
      body: { error: 'invalid_request', message: 'date 2026-11-23 is after today (2026-11-22, UTC)' },
    });
    expect((await get('results?date=2026-02-30')).status).toBe(400);
    expect((await get('results?sport=nba&stat=goals')).status).toBe(400);
  });
});

describe('GET /api/v1/props/track-record', () => {
  it('scores every settled estimate published at lock (free)', async () => {
    const { status, body } = await get('track-record');
    expect(status).toBe(200);
    const record = TrackRecordResponseSchema.parse(body);
    // Decided: LeBron PrizePicks 0.6 over (went over), Jokić 0.7 over (went over); Underdog's 26 pushed.
    // Brier ((0.6−1)² + (0.7−1)²) / 2 = 0.125; log loss −(ln 0.6 + ln 0.7) / 2 = 0.43375.
    expect(record).toMatchObject({ sport: null, stat: null, since: null, method: null, count: 2, pushes: 1 });
    expect([record.brier, record.logLoss]).toEqual([0.125, 0.4338]);
    expect(record.calibration.filter((b) => b.count > 0)).toEqual([
      { from: 0.6, to: 0.7, count: 1, predicted: 0.6, observed: 1 },
      { from: 0.7, to: 0.8, count: 1, predicted: 0.7, observed: 1 },
    ]);
    // PrizePicks 2-pick Power (0.5774): 0.6 (edge 0.0226) and 0.7 (0.1226) both won, each returning 1/0.5774.
    expect(record.edges.find((e) => e.entry === 'prizepicks_power_2' && e.minEdge === 0.02)).toMatchObject({
      picks: 2,
      hits: 2,
      hitRate: 1,
      roi: 0.7321,
    });
    expect(record.note).toContain('not promises');
  });

  it('gives ECE, the market beside ours on the props it priced, and 95 % intervals of hit rates and ROI', async () => {
    const record = TrackRecordResponseSchema.parse((await get('track-record')).body);
    // Ours: bins 0.6 → 1 and 0.7 → 1, one each: (0.4 + 0.3) / 2.
    expect(record.ece).toBe(0.35);
    // The market priced LeBron's 25.5 (0.55, went over) and Underdog's 26 (pushed: outside the scores).
    expect(record.market).toEqual({
      count: 1,
      // (0.55 − 1)², −ln 0.55, |0.55 − 1|
      brier: 0.2025,
      logLoss: 0.5978,
      ece: 0.45,
      calibration: record.calibration.map((b) =>
        b.from === 0.5
          ? { ...b, count: 1, predicted: 0.55, observed: 1 }
          : { ...b, count: 0, predicted: null, observed: null },
      ),
      // Ours on the same prop: 0.6 over.
      ours: { brier: 0.16, logLoss: 0.5108, ece: 0.4 },
    });
    // 2 of 2: Wilson (z = 1.96) centre (1 + z²/4) / (1 + z²/2) = 0.6712, half-width 0.3288; the ROI at 1/0.5774 per win.
    expect(record.edges.find((e) => e.entry === 'prizepicks_power_2' && e.minEdge === 0.02)).toMatchObject({
      hitRateInterval: { low: 0.3424, high: 1 },
      roiInterval: { low: -0.4069, high: 0.7321 },
    });
    const none = record.edges.find((e) => e.picks === 0);
    expect([none?.hitRateInterval, none?.roiInterval]).toEqual([null, null]);
  });

  it('filters by method, since and stat; refuses an unknown method and a since after today', async () => {
    const byMethod = (await get('track-record?method=distribution')).body;
    expect([byMethod.method, byMethod.count, byMethod.brier]).toEqual(['distribution', 1, 0.09]);
    expect((await get('track-record?since=2026-11-22')).body.count).toBe(1);
    expect((await get('track-record?sport=nba&stat=points')).body).toMatchObject({ count: 1, pushes: 1 });
    const bad = await get('track-record?method=guess');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_request');
    expect((await get('track-record?method=none')).status).toBe(400);
    expect(await get('track-record?since=2026-11-23')).toEqual({
      status: 400,
      body: { error: 'invalid_request', message: 'since 2026-11-23 is after today (2026-11-22, UTC)' },
    });
  });
});
