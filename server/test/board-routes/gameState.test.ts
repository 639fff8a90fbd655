/**
 * A game's state on every route: `/games` lists live, then pre-game, then final games (a
 * finished one for FINAL_GAMES_LISTED_HOURS, or behind `?state=`); the scan, edges, movers
 * and a player's props leave finished games out unless `state` asks; the free tier sees each
 * game in the state its delayed board had.
 */
import { GamesResponseSchema, MovementResponseSchema, PlayerPropsResponseSchema } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardProp } from '../../src/board/types';
import type { HistoryGame, LineChange } from '../../src/history/lineHistory';
import type { GameSpec } from '../helpers/board';
import { CHA_MEM_LIVE, DEN_LAL } from './fixtures';
import { type BoardRoutesApp, buildBoardRoutesApp, MIN, NOW } from './setup';

const HOUR = 60 * MIN;

const NYK_BOS: GameSpec = {
  id: 'ud_1003',
  startTime: '2026-11-22T03:30:00.000Z',
  homeTeam: 'New York Knicks',
  awayTeam: 'Boston Celtics',
  props: [{ player: 'Jalen Brunson', team: 'New York Knicks', stat: 'points', line: 26.5 }],
};

/** Over half an hour ago; live on the free tier's board of 20 minutes ago. */
const ORL_MIA_FINAL: GameSpec = {
  id: 'ud_1004',
  state: 'final',
  finalAt: NOW - 30 * MIN,
  startTime: '2026-11-21T22:00:00.000Z',
  homeTeam: 'Orlando Magic',
  awayTeam: 'Miami Heat',
  props: [
    { player: 'Jalen Suggs', team: 'Orlando Magic', stat: 'points', line: 14.5, liveValue: 17 },
    { player: 'Tyler Herro', team: 'Miami Heat', stat: 'points', line: 22.5, liveValue: 19 },
  ],
};

/** Over for four hours: past the time `/games` lists a finished game by default. */
const UTA_PHX_FINAL: GameSpec = {
  id: 'ud_1005',
  state: 'final',
  finalAt: NOW - 4 * HOUR,
  startTime: '2026-11-21T18:00:00.000Z',
  homeTeam: 'Utah Jazz',
  awayTeam: 'Phoenix Suns',
  props: [{ player: 'Lauri Markkanen', team: 'Utah Jazz', stat: 'rebounds', line: 8.5, liveValue: 9 }],
};

let t: BoardRoutesApp;

/** Herro's points at Underdog opened at 20.5 and went up to 22.5 before the game. */
function herroHistory(prop: (player: string, stat: string) => BoardProp) {
  const herro = prop('Tyler Herro', 'points');
  const games: HistoryGame[] = [
    {
      id: 'ud_1004',
      mergedId: 'ud_1004',
      book: 'underdog',
      sport: 'nba',
      homeTeam: 'Orlando Magic',
      awayTeam: 'Miami Heat',
      startMs: Date.parse('2026-11-21T22:00:00.000Z'),
    },
  ];
  const point = (ago: number, line: number): LineChange => ({
    book: 'underdog',
    sport: 'nba',
    gameId: 'ud_1004',
    playerKey: herro.playerKey,
    player: herro.player,
    team: herro.team,
    stat: 'points',
    at: NOW - ago,
    line,
    overOdds: -115,
    underOdds: -105,
  });
  return { games, changes: [point(6 * HOUR, 20.5), point(4 * HOUR, 22.5)] };
}

beforeAll(async () => {
  t = await buildBoardRoutesApp({
    current: [DEN_LAL, CHA_MEM_LIVE, NYK_BOS, ORL_MIA_FINAL, UTA_PHX_FINAL],
    past: [DEN_LAL, CHA_MEM_LIVE, NYK_BOS, { ...ORL_MIA_FINAL, state: 'live' }, UTA_PHX_FINAL],
    history: ({ prop }) => herroHistory(prop),
  });
});
afterAll(() => t.close());

const get = async (path: string, key: string) => {
  const res = await t.get(path, key);
  return { status: res.statusCode, body: res.json() };
};
const states = (rows: { gameState?: string }[]) => [...new Set(rows.map((r) => r.gameState))];

describe('/games', () => {
  it('lists live, then pre-game by start, then finished games, each with its state; an old final is gone', async () => {
    const { status, body } = await get('/api/v1/games?sport=nba', t.keys.sharp);
    expect(status).toBe(200);
    const games = GamesResponseSchema.parse(body).games;
    expect(games.map((g) => [g.id, g.state, g.live])).toEqual([
      ['pp_1001', 'live', true],
      ['pp_1002', 'pre', false],
      ['ud_1003', 'pre', false],
      ['ud_1004', 'final', false],
    ]);
    expect(games[0]).toMatchObject({ state: 'live', clock: 'Q2 5:31' });
  });

  it('keeps every finished game the board holds behind ?state=final, and all of them behind ?state=all', async () => {
    const final = GamesResponseSchema.parse((await get('/api/v1/games?sport=nba&state=final', t.keys.sharp)).body);
    expect(final.games.map((g) => g.id)).toEqual(['ud_1005', 'ud_1004']);
    const all = GamesResponseSchema.parse((await get('/api/v1/games?sport=nba&state=all', t.keys.sharp)).body);
    expect(all.games.map((g) => g.id)).toEqual(['pp_1001', 'pp_1002', 'ud_1003', 'ud_1005', 'ud_1004']);
    const pre = GamesResponseSchema.parse((await get('/api/v1/games?sport=nba&state=pre', t.keys.sharp)).body);
    expect(pre).toMatchObject({ count: 2, games: [{ id: 'pp_1002' }, { id: 'ud_1003' }] });
  });

  it('refuses a state that is none of pre, live, final, all', async () => {
    expect(await get('/api/v1/games?sport=nba&state=over', t.keys.sharp)).toEqual({
      status: 400,
      body: { error: 'invalid_request', message: expect.stringContaining('state is one of pre, live, final, all') },
    });
  });

  it('shows the free tier each game in the state of its delayed board: live then, final now', async () => {
    const free = GamesResponseSchema.parse((await get('/api/v1/games?sport=nba', t.keys.free)).body);
    expect(free.delayed).toBe(true);
    expect(free.games.map((g) => [g.id, g.state])).toEqual([
      ['ud_1004', 'live'],
      ['pp_1001', 'live'],
      ['pp_1002', 'pre'],
      ['ud_1003', 'pre'],
    ]);
  });
});

describe('the scan, edges, movers and player routes', () => {
  it('scan: the open games by default (its first row live or pre), finished ones with state=final or all', async () => {
    const open = (await get('/api/v1/props?sport=nba', t.keys.sharp)).body;
    expect(states(open.rows)).toEqual(['live', 'pre']);
    expect(open.rows.some((r: { eventId: string }) => r.eventId === 'ud_1004')).toBe(false);
    const final = (await get('/api/v1/props?sport=nba&state=final', t.keys.sharp)).body;
    expect(final.rows.map((r: { player: string; liveValue: number }) => [r.player, r.liveValue])).toEqual([
      ['Lauri Markkanen', 9],
      ['Jalen Suggs', 17],
      ['Tyler Herro', 19],
    ]);
    const all = (await get('/api/v1/props?sport=nba&state=all', t.keys.sharp)).body;
    expect(states(all.rows)).toEqual(['live', 'pre', 'final']);
    expect(all.count).toBe(open.count + final.count);
  });

  it('scan: a tier without live lines gets none by default, and is told so when it asks for live', async () => {
    const pro = (await get('/api/v1/props?sport=nba', t.keys.pro)).body;
    expect(states(pro.rows)).toEqual(['pre']);
    expect(await get('/api/v1/props?sport=nba&state=live', t.keys.pro)).toEqual({
      status: 403,
      body: {
        error: 'live_not_in_tier',
        message: 'live in-game lines are not included in the pro tier',
        requiredTier: 'sharp',
      },
    });
  });

  it('edges: the open games by default, finished ones with state=final', async () => {
    const open = (await get('/api/v1/props/edges?sport=nba', t.keys.sharp)).body;
    expect(open.rows.length).toBeGreaterThan(0);
    expect(states(open.rows)).not.toContain('final');
    const final = (await get('/api/v1/props/edges?sport=nba&state=final', t.keys.sharp)).body;
    expect(final.rows.length).toBeGreaterThan(0);
    expect(states(final.rows)).toEqual(['final']);
  });

  it('movers: a finished game’s move only with state=final or all', async () => {
    const movers = async (query: string) =>
      MovementResponseSchema.parse((await get(`/api/v1/props/movement?sport=nba${query}`, t.keys.sharp)).body).movers;
    const herro = (m: { player: string }[]) => m.filter((x) => x.player === 'Tyler Herro');
    expect(herro(await movers(''))).toEqual([]);
    expect(herro(await movers('&state=final'))).toEqual([
      expect.objectContaining({ eventId: 'ud_1004', openLine: 20.5, currentLine: 22.5, change: 2 }),
    ]);
    expect(herro(await movers('&state=all'))).toHaveLength(1);
    expect(herro(await movers('&state=pre'))).toEqual([]);
  });

  it('player: the same rows as the scan; a finished game’s player is found only with state=final or all', async () => {
    const scan = (await get('/api/v1/props?sport=nba&state=all', t.keys.sharp)).body.rows;
    for (const [name, query] of [
      ['Jalen Brunson', ''],
      ['Tyler Herro', '&state=final'],
      ['Lauri Markkanen', '&state=all'],
    ] as const) {
      const state = query.replace('&state=', '') || undefined;
      const fromScan = scan.filter(
        (r: { player: string; gameState: string }) =>
          r.player === name && (state === 'all' || r.gameState === (state ?? r.gameState)),
      );
      const player = PlayerPropsResponseSchema.parse(
        (await get(`/api/v1/props/player?name=${encodeURIComponent(name)}${query}`, t.keys.sharp)).body,
      );
      expect(player.rows).toEqual(fromScan);
      expect(player.count).toBeGreaterThan(0);
    }
    expect((await get('/api/v1/props/player?name=tyler%20herro', t.keys.sharp)).body).toMatchObject({
      player: null,
      count: 0,
    });
    // "jalen": Brunson plays tonight; Suggs's game is over, so he makes the name ambiguous only when asked for.
    expect((await get('/api/v1/props/player?name=jalen', t.keys.sharp)).body.player).toBe('Jalen Brunson');
    const ambiguous = await get('/api/v1/props/player?name=jalen&state=all', t.keys.sharp);
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.candidates).toHaveLength(2);
  });
});
