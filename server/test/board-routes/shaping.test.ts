/**
 * What a table asks the server for (issue 33): a scan sorted and kept to minBooks over the whole
 * board before its limit, and slip legs that tell players of one name apart by team or sport.
 */
import { ScanResponseSchema, SlipEvaluationSchema } from '@propsfeed/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameSpec, PropSpec } from '../helpers/board';
import { type BoardRoutesApp, buildBoardRoutesApp } from './setup';

/** Points lines spread over three games, so that no one game holds the board's top lines. */
const points = (players: [string, number, ('prizepicks' | 'underdog')[]?][]): PropSpec[] =>
  players.map(([player, line, books]) => ({ player, stat: 'points', line, team: 'team', ...(books ? { books } : {}) }));

const GAMES: GameSpec[] = [
  {
    id: 'ud_5001',
    homeTeam: 'Orlando Magic',
    awayTeam: 'New York Knicks',
    startTime: '2026-11-22T00:30:00.000Z',
    props: [
      ...points([
        ['Anton Ames', 12.5],
        ['Bo Baker', 27.5, ['prizepicks']],
        ['Cy Cole', 18.5],
        ['Dan Dale', 9.5],
      ]),
      { player: 'Ronnie Washington', stat: 'threes', line: 2.5, team: 'New York Knicks' },
      { player: 'Ronnie Washington', stat: 'rebounds', line: 4.5, team: 'New York Knicks' },
      { player: 'Tariq Pitman', stat: 'rebounds', line: 5.5, team: 'New York Knicks' },
    ],
  },
  {
    id: 'pp_5002',
    homeTeam: 'Boston Celtics',
    awayTeam: 'Miami Heat',
    startTime: '2026-11-22T02:00:00.000Z',
    props: points([
      ['Eli East', 30.5],
      ['Finn Ford', 22.5],
      ['Gus Gray', 25.5, ['prizepicks']],
      ['Hal Hart', 14.5],
    ]),
  },
  {
    id: 'pp_5003',
    homeTeam: 'Denver Nuggets',
    awayTeam: 'Los Angeles Lakers',
    startTime: '2026-11-22T03:00:00.000Z',
    props: points([
      ['Ike Irving', 30.5, ['underdog']],
      ['Jay James', 28.5],
      ['Kit Kane', 20.5],
      ['Lou Lane', 16.5],
    ]),
  },
  {
    id: 'pp_6001',
    sport: 'ncaab',
    homeTeam: 'Duke Blue Devils',
    awayTeam: 'North Carolina Tar Heels',
    startTime: '2026-11-22T02:30:00.000Z',
    props: [
      { player: 'Ronnie Washington', stat: 'threes', line: 1.5, team: 'Duke Blue Devils' },
      { player: 'Mo Mills', stat: 'points', line: 14.5, team: 'Duke Blue Devils' },
    ],
  },
];

let t: BoardRoutesApp;
beforeAll(async () => {
  t = await buildBoardRoutesApp({ current: GAMES });
});
afterAll(() => t.close());

const scan = async (query: string, key = t.keys.pro) => {
  const res = await t.get(`/api/v1/props?${query}`, key);
  return { status: res.statusCode, body: res.json() };
};
const slip = async (legs: unknown[], key = t.keys.sharp) => {
  const res = await t.inject({
    method: 'POST',
    url: '/api/v1/slips/evaluate',
    payload: { legs },
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: res.statusCode, body: res.json() };
};

describe('GET /api/v1/props?sort=&minBooks=', () => {
  it('sorts the whole board before the limit: the true top 8 lines', async () => {
    const all = ScanResponseSchema.parse((await scan('sport=nba&stat=points')).body);
    const top8 = all.rows
      .map((r) => r.line)
      .sort((a, b) => b - a)
      .slice(0, 8);
    const { status, body } = await scan('sport=nba&stat=points&sort=line&limit=8');
    expect(status).toBe(200);
    const parsed = ScanResponseSchema.parse(body);
    expect(parsed.rows.map((r) => r.line)).toEqual(top8);
    expect(parsed.rows.map((r) => r.player).slice(0, 3)).toEqual(['Eli East', 'Ike Irving', 'Jay James']);
    expect(parsed).toMatchObject({ count: 8, total: 12 });
    // The unsorted first 8 are the board's order (by start), which holds neither 30.5.
    expect((await scan('sport=nba&stat=points&limit=8')).body.rows.map((r: { line: number }) => r.line)).not.toEqual(
      top8,
    );
  });

  it('keeps props of at least minBooks books before the limit, and counts them in total', async () => {
    const { body } = await scan('sport=nba&stat=points&sort=line&minBooks=2&limit=8');
    const parsed = ScanResponseSchema.parse(body);
    expect(parsed.rows.every((r) => r.bookCount >= 2)).toBe(true);
    expect(parsed.rows.map((r) => r.player).slice(0, 2)).toEqual(['Eli East', 'Jay James']);
    expect(parsed).toMatchObject({ count: 8, total: 9 });
  });

  it('sorts by player, books and odds too', async () => {
    const byPlayer = (await scan('sport=nba&stat=points&sort=player&limit=3')).body.rows.map(
      (r: { player: string }) => r.player,
    );
    expect(byPlayer).toEqual(['Anton Ames', 'Bo Baker', 'Cy Cole']);
    const byBooks = ScanResponseSchema.parse((await scan('sport=nba&stat=points&sort=books')).body);
    expect(byBooks.rows.map((r) => r.bookCount)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1]);
  });

  it('answers a bad sort or minBooks with a 400 that says what is allowed', async () => {
    expect(await scan('sport=nba&sort=price')).toEqual({
      status: 400,
      body: {
        error: 'invalid_request',
        message: expect.stringContaining('sort is one of line, odds, edge, books, player'),
      },
    });
    const books = await scan('sport=nba&minBooks=3');
    expect(books.status).toBe(400);
    expect(books.body.message).toContain('a whole number from 1 to 2');
  });
});

describe('slip legs with a team or a sport', () => {
  const pitman = { player: 'Tariq Pitman', stat: 'rebounds', side: 'over' };

  it('an ambiguous name is a 400 listing each choice as a leg to paste', async () => {
    const { status, body } = await slip([{ player: 'Ronnie Washington', stat: 'threes', side: 'over' }, pitman]);
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_request');
    expect([...body.choices].sort()).toEqual([
      'Ronnie Washington@Duke Blue Devils:threes:over',
      'Ronnie Washington@New York Knicks:threes:over',
    ]);
    expect(body.message).toContain('matches more than one player');
  });

  it('@team resolves a shared name (by nickname or abbreviation), as does the sport', async () => {
    for (const team of ['knicks', 'NYK', 'New York Knicks']) {
      const { status, body } = await slip([
        { player: 'Ronnie Washington', team, stat: 'threes', side: 'over' },
        pitman,
      ]);
      expect(status).toBe(200);
      expect(SlipEvaluationSchema.parse(body).legs[0]).toMatchObject({ eventId: 'ud_5001', line: 2.5 });
    }
    const bySport = await slip([
      { player: 'Ronnie Washington', sport: 'ncaab', stat: 'threes', side: 'over' },
      { player: 'Mo Mills', stat: 'points', side: 'over' },
    ]);
    expect(bySport.status).toBe(200);
    expect(bySport.body.legs[0]).toMatchObject({ eventId: 'pp_6001', line: 1.5 });
  });

  it('a shared name only one of whom has the stat tonight means that one', async () => {
    const { status, body } = await slip([{ player: 'Ronnie Washington', stat: 'rebounds', side: 'over' }, pitman]);
    expect(status).toBe(200);
    expect(body.legs[0]).toMatchObject({ eventId: 'ud_5001', line: 4.5 });
  });

  it('a team the player is not on: no such player of that team', async () => {
    const { status, body } = await slip([
      { player: 'Ronnie Washington', team: 'Celtics', stat: 'threes', side: 'over' },
      pitman,
    ]);
    expect(status).toBe(400);
    expect(body.message).toContain("no such player of team 'Celtics' on today's board");
  });
});
