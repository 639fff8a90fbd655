/** createLocalApi answers what the HTTP routes answer, and throws PropsApiErrorShape errors. */
import { isPropsApiError } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerOf } from '../../src/auth/caller';
import { hashKeyHex } from '../../src/keys/format';
import { EntryBook, PropOdds } from '../../src/odds';
import { createLocalApi } from '../../src/queries/local';
import { ViewRegistry } from '../../src/views';
import { buildTestApp, type TestApp } from '../helpers/app';
import { buildBoard, TestBoardSource } from '../helpers/board';
import { ALL_GAMES } from '../helpers/fixtures';

const NOW = Date.parse('2026-11-22T01:00:00.000Z');
let t: TestApp;
beforeAll(async () => {
  const source = new TestBoardSource(buildBoard(ALL_GAMES, NOW - 20 * 60_000), buildBoard(ALL_GAMES, NOW));
  t = await buildTestApp({ source, now: () => NOW });
});
afterAll(() => t.close());

async function apiFor(key: string) {
  const record = await t.store.findByHash(hashKeyHex(key));
  if (!record) throw new Error('no key');
  const views = new ViewRegistry(t.source, undefined, new PropOdds(new EntryBook()));
  const deps = { views, limiter: t.limiter, now: () => NOW };
  return createLocalApi(deps, callerOf(record));
}

describe('createLocalApi', () => {
  it.each(['free', 'pro', 'sharp'] as const)('answers as GET does for %s', async (tier) => {
    const api = await apiFor(t.keys[tier]);
    const key = t.keys[tier];
    expect(await api.sports()).toEqual((await t.get('/api/v1/sports', key)).json());
    expect(await api.games({ sport: 'nba' })).toEqual((await t.get('/api/v1/games?sport=nba', key)).json());
    expect(await api.gameProps('ud_9002', { stats: ['pra', 'points'] })).toEqual(
      (await t.get('/api/v1/games/ud_9002/props?stats=points,pra', key)).json(),
    );
    expect(await api.scan({ stat: 'points', limit: 2 })).toEqual(
      (await t.get('/api/v1/props?stat=points&limit=2', key)).json(),
    );
    const me = await api.me();
    const http = (await t.get('/api/v1/me', key)).json();
    expect({ ...me, usage: undefined }).toEqual({ ...http, usage: undefined });
    expect(http.usage.today).toBe(me.usage.today + 1);
  });

  it('throws errors with status, code and requiredTier', async () => {
    const free = await apiFor(t.keys.free);
    const refusal = await free.games({ sport: 'mlb' }).catch((e: unknown) => e);
    expect(isPropsApiError(refusal)).toBe(true);
    expect(refusal).toMatchObject({ status: 403, code: 'sport_not_in_tier', requiredTier: 'pro' });
    await expect(free.propHistory({ eventId: 'pp_1002', player: 'x', stat: 'pra' })).rejects.toMatchObject({
      status: 403,
      code: 'route_not_in_tier',
    });
    await expect(free.scan({ limit: 0 })).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
    await expect(free.games({ sport: 'xyz' as 'nba' })).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
    await expect(free.gameProps('nope')).rejects.toMatchObject({ status: 400 });
    await expect(free.gameProps('pp_999')).rejects.toMatchObject({ status: 404, code: 'event_not_found' });
  });
});
