import { describe, expect, it } from 'vitest';
import {
  DaySchema,
  EdgesQuerySchema,
  ERROR_CODES,
  ErrorSchema,
  GamePropsQuerySchema,
  GameSchema,
  GamesQuerySchema,
  GamesResponseSchema,
  KeyInfoSchema,
  MovementQuerySchema,
  PlayerPropSchema,
  PlayerPropsQuerySchema,
  PropsResultSchema,
  ScanQuerySchema,
  ScanResponseSchema,
  ScanRowSchema,
  SportSchema,
  SportsResponseSchema,
  STAT_KEYS,
  statusOfError,
} from '../src';
import * as ex from './examples';

function without<T extends object>(obj: T, key: keyof T): Partial<T> {
  const { [key]: _, ...rest } = obj;
  return rest as Partial<T>;
}

const cases = [
  { name: 'Sport', schema: SportSchema, example: ex.sport, required: ['id', 'name', 'enabled', 'requiredTier'] },
  {
    name: 'Game',
    schema: GameSchema,
    example: ex.game,
    required: ['id', 'sport', 'homeTeam', 'awayTeam', 'startTime', 'live', 'state', 'source'],
  },
  {
    name: 'PlayerProp',
    schema: PlayerPropSchema,
    example: ex.playerProp,
    required: ['player', 'stat', 'line', 'bookCount'],
  },
  {
    name: 'PropsResult',
    schema: PropsResultSchema,
    example: ex.propsResult,
    required: ['eventId', 'sport', 'homeTeam', 'awayTeam', 'startTime', 'props', 'sources', 'fetchedAt', 'delayed'],
  },
  {
    name: 'ScanRow',
    schema: ScanRowSchema,
    example: ex.scanRow,
    required: [
      'player',
      'stat',
      'line',
      'bookCount',
      'eventId',
      'sport',
      'homeTeam',
      'awayTeam',
      'startTime',
      'source',
    ],
  },
  {
    name: 'ScanResponse',
    schema: ScanResponseSchema,
    example: ex.scanResponse,
    required: ['sport', 'stat', 'count', 'rows'],
  },
  {
    name: 'KeyInfo',
    schema: KeyInfoSchema,
    example: ex.keyInfo,
    required: ['keyPrefix', 'tier', 'label', 'limits', 'usage'],
  },
  { name: 'Error', schema: ErrorSchema, example: ex.apiError, required: ['error', 'message'] },
] as const;

describe.each(cases)('$name', ({ schema, example, required }) => {
  it('accepts a realistic example', () => {
    expect(schema.safeParse(example).success).toBe(true);
  });
  it.each(required)('rejects a missing required field: %s', (field) => {
    expect(schema.safeParse(without(example as Record<string, unknown>, field)).success).toBe(false);
  });
  it('rejects a wrong type', () => {
    const field = required[0] as string;
    expect(schema.safeParse({ ...example, [field]: 12345 }).success).toBe(false);
  });
});

describe('optional fields and enums', () => {
  it('a prop without odds, photo or live state is valid (PrizePicks posts no odds)', () => {
    const minimal = { player: 'LeBron James', stat: 'points', line: 24.5, bookCount: 1 };
    expect(PlayerPropSchema.safeParse(minimal).success).toBe(true);
  });
  it('rejects a bad gameState, source, sport and tier', () => {
    expect(PlayerPropSchema.safeParse({ ...ex.playerProp, gameState: 'halftime' }).success).toBe(false);
    expect(GameSchema.safeParse({ ...ex.game, source: 'draftkings' }).success).toBe(false);
    expect(GameSchema.safeParse({ ...ex.game, sport: 'cricket' }).success).toBe(false);
    expect(GameSchema.safeParse({ ...ex.game, state: 'halftime' }).success).toBe(false);
    expect(GameSchema.safeParse({ ...ex.game, clock: 'third quarter' }).success).toBe(false);
    expect(KeyInfoSchema.safeParse({ ...ex.keyInfo, tier: 'gold' }).success).toBe(false);
  });
  it('rejects impossible American odds and a malformed clock', () => {
    expect(PlayerPropSchema.safeParse({ ...ex.playerProp, overOdds: 50 }).success).toBe(false);
    expect(PlayerPropSchema.safeParse({ ...ex.playerProp, gameClock: 'third quarter' }).success).toBe(false);
  });
  it("accepts 'all' or a list of sports in limits", () => {
    const all = { ...ex.keyInfo, limits: { ...ex.keyInfo.limits, sports: 'all' } };
    expect(KeyInfoSchema.safeParse(all).success).toBe(true);
    const bad = { ...ex.keyInfo, limits: { ...ex.keyInfo.limits, sports: 'some' } };
    expect(KeyInfoSchema.safeParse(bad).success).toBe(false);
  });
  it('scan stat may be null but must be present', () => {
    expect(ScanResponseSchema.safeParse({ ...ex.scanResponse, stat: null }).success).toBe(true);
  });
  it('the projection needs a sample of at least 5 games', () => {
    const thin = { ...ex.scanRow, propsfeedProjection: { ...ex.scanRow.propsfeedProjection, sampleN: 4 } };
    expect(ScanRowSchema.safeParse(thin).success).toBe(false);
  });
  it('wraps sports and games in their responses', () => {
    expect(SportsResponseSchema.safeParse({ sports: [ex.sport] }).success).toBe(true);
    expect(GamesResponseSchema.safeParse({ sport: 'nba', count: 1, games: [ex.game] }).success).toBe(true);
    expect(GamesResponseSchema.safeParse({ sport: 'nba', count: -1, games: [] }).success).toBe(false);
  });
});

describe('query parameters', () => {
  it('defaults sport to nba', () => {
    expect(GamesQuerySchema.parse({})).toEqual({ sport: 'nba' });
  });
  it.each([['0'], ['5001'], ['abc'], [''], ['1e3'], ['-5'], ['2.5']])('rejects limit=%s', (limit) => {
    expect(ScanQuerySchema.safeParse({ limit }).success).toBe(false);
  });
  it.each([
    ['1', 1],
    ['5000', 5000],
  ])('accepts limit=%s', (limit, parsed) => {
    expect(ScanQuerySchema.parse({ limit })).toEqual({ sport: 'nba', limit: parsed });
  });
  it('rejects an unknown sport and a repeated parameter', () => {
    expect(ScanQuerySchema.safeParse({ sport: 'xyz' }).success).toBe(false);
    expect(ScanQuerySchema.safeParse({ sport: ['nba', 'mlb'] }).success).toBe(false);
  });
  it('stats is a comma-separated list of stat keys', () => {
    expect(GamePropsQuerySchema.safeParse({ stats: 'points,pra' }).success).toBe(true);
    expect(GamePropsQuerySchema.safeParse({ stats: 'points,,pra' }).success).toBe(false);
    expect(GamePropsQuerySchema.safeParse({ stats: 'Points; DROP' }).success).toBe(false);
  });
  it('state is one game state or all, absent by default, on every board route that lists props or games', () => {
    for (const schema of [GamesQuerySchema, ScanQuerySchema, EdgesQuerySchema, MovementQuerySchema]) {
      expect(schema.parse({}).state).toBeUndefined();
      for (const state of ['pre', 'live', 'final', 'all']) expect(schema.parse({ state }).state).toBe(state);
      expect(schema.safeParse({ state: 'over' }).error?.issues[0]?.message).toBe(
        'state is one of pre, live, final, all',
      );
    }
    expect(PlayerPropsQuerySchema.parse({ name: 'x', state: 'final' }).state).toBe('final');
  });
  it('movement limit is 1..500 with a default of 50', () => {
    expect(MovementQuerySchema.parse({})).toMatchObject({ limit: 50 });
    expect(MovementQuerySchema.safeParse({ limit: '501' }).success).toBe(false);
    expect(MovementQuerySchema.safeParse({ since: 'yesterday' }).success).toBe(false);
  });
});

describe('catalog', () => {
  it('maps every error code to one status', () => {
    expect(statusOfError('invalid_api_key')).toBe(401);
    expect(statusOfError('live_not_in_tier')).toBe(403);
    expect(statusOfError('too_many_streams')).toBe(429);
    expect(statusOfError('method_not_allowed')).toBe(405);
    expect(statusOfError('payload_too_large')).toBe(413);
    expect(statusOfError('unsupported_media_type')).toBe(415);
    expect(statusOfError('host_not_allowed')).toBe(403);
    expect(statusOfError('too_many_webhooks')).toBe(403);
    expect(ERROR_CODES).toHaveLength(18);
  });
  it('has the NBA stat keys of the spec', () => {
    expect(STAT_KEYS.nba).toEqual(expect.arrayContaining(['points', 'rebounds', 'assists', 'threes', 'pra']));
  });
});

describe('DaySchema', () => {
  it('refuses what is no YYYY-MM-DD in one sentence, and a day no calendar has in another', () => {
    const messages = (value: string) => DaySchema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];
    expect(messages('bogus')).toEqual(['a day is YYYY-MM-DD']);
    expect(messages('2026-02-30')).toEqual(['not a calendar day']);
    expect(messages('2026-02-28')).toEqual([]);
  });
});
