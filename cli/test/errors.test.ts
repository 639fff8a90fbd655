/** Every failure speaks to a person, with the fixed exit code. */
import {
  AuthenticationError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '@propsfeed/sdk';
import { describe, expect, it } from 'vitest';
import { describeError } from '../src/errors';

describe('describeError', () => {
  it('401: says the key was rejected and the fix that works from where the key came (exit 4)', () => {
    const err = new AuthenticationError({ status: 401, code: 'invalid_api_key', message: 'key is invalid' });
    // `props login` cannot fix a key PROPS_API_KEY overrides: the variable is named, not login alone.
    expect(describeError(err, { keySource: 'env' })).toEqual({
      message:
        'Your API key was rejected (it came from PROPS_API_KEY). PROPS_API_KEY wins over the key `props login` stores: set it to a valid key, or `unset PROPS_API_KEY` (then `props login` if no key is stored).',
      exitCode: 4,
    });
    expect(describeError(err, { keySource: 'config' }).message).toBe(
      'Your API key was rejected (it came from the config file written by `props login`). Run `props login` to store a valid key.',
    );
    expect(describeError(err, { keySource: 'flag' }).message).toBe(
      'Your API key was rejected (it came from the --api-key flag). Pass a valid key to --api-key, or drop the flag to use the key `props login` stored.',
    );
    expect(describeError(err, { keySource: 'login' }).message).toBe(
      'Your API key was rejected (it came from what was given to `props login`). Check the key and run `props login` again.',
    );
    const missing = new AuthenticationError({ status: 401, code: 'missing_api_key', message: 'no key' });
    expect(describeError(missing)).toEqual({
      message: 'No API key. Run `props login`, pass --api-key, or set PROPS_API_KEY.',
      exitCode: 4,
    });
  });

  it('403: says what the tier lacks and which tier has it (exit 1)', () => {
    const sport = new PermissionError({ status: 403, code: 'sport_not_in_tier', message: 'x', requiredTier: 'pro' });
    expect(describeError(sport, { sport: 'mlb' })).toEqual({
      message:
        'MLB Baseball is not included in your tier. It is available on the pro tier and above. Run `props me` to see what your key includes.',
      exitCode: 1,
    });
    const route = new PermissionError({ status: 403, code: 'route_not_in_tier', message: 'x', requiredTier: 'pro' });
    expect(describeError(route, { feature: 'line history' }).message).toMatch(
      /^line history is not included in your tier\. It is available on the pro tier and above\./,
    );
    const live = new PermissionError({ status: 403, code: 'live_not_in_tier', message: 'x', requiredTier: 'sharp' });
    expect(describeError(live).message).toMatch(
      /^live in-game lines are not included in your tier\. They are available on the sharp/,
    );
  });

  it('403: names the tier the API said the key is on, with the route in lower case', () => {
    const message = '/api/v1/props/edges is not included in the free tier';
    const edges = new PermissionError({ status: 403, code: 'route_not_in_tier', message, requiredTier: 'pro' });
    expect(describeError(edges, { feature: 'edges' }).message).toBe(
      'edges is not included in the free tier. It is available on the pro tier and above. Run `props me` to see what your key includes.',
    );
  });

  it('429: says when to retry (exit 1)', () => {
    const limited = new RateLimitError({ status: 429, code: 'rate_limited', message: 'x', retryAfter: 42 });
    expect(describeError(limited)).toEqual({ message: 'Rate limit reached. Try again in 42s.', exitCode: 1 });
    const quota = new RateLimitError({ status: 429, code: 'daily_quota_exceeded', message: 'x', retryAfter: 7260 });
    expect(describeError(quota).message).toBe(
      "Today's request quota is used up. It resets at midnight UTC: try again in 2h 1m.",
    );
  });

  it('no server: names the URL tried (exit 1)', () => {
    const err = new ConnectionError({
      code: 'connection_error',
      message: 'Could not connect to http://127.0.0.1:1/api/v1/games?sport=nba: ECONNREFUSED',
      url: 'http://127.0.0.1:1/api/v1/games?sport=nba',
    });
    expect(describeError(err)).toEqual({
      message:
        'Could not reach the propsfeed API at http://127.0.0.1:1/api/v1/games (ECONNREFUSED). Is the server running (`props serve`)? Point --base-url or PROPS_BASE_URL at it.',
      exitCode: 1,
    });
    const late = new TimeoutError({ code: 'timeout', message: 'late', url: 'http://h/api/v1/me' });
    expect(describeError(late).message).toContain('No answer from http://h/api/v1/me in time');
  });

  it('400 is a usage error that lists candidates; 404 adds the hint; 5xx asks to retry', () => {
    const ambiguous = new InvalidRequestError({
      status: 400,
      code: 'invalid_request',
      message: "'james' matches several players",
      candidates: ['LeBron James', 'James Harden'],
    });
    expect(describeError(ambiguous)).toEqual({
      message:
        "The API refused the request: 'james' matches several players. Did you mean: LeBron James, James Harden?",
      exitCode: 2,
    });
    const missing = new NotFoundError({ status: 404, code: 'event_not_found', message: 'no game pp_1' });
    const named = new InvalidRequestError({
      status: 400,
      code: 'invalid_request',
      message: "'aaron adams' matches more than one player: Aaron Adams (Pacers, NBA); Aaron Adams (Heels, NCAAB)",
      candidates: ['Aaron Adams (Pacers, NBA)', 'Aaron Adams (Heels, NCAAB)'],
    });
    expect(describeError(named, { ambiguous: 'Narrow it with --sport.' }).message).toBe(
      "The API refused the request: 'aaron adams' matches more than one player: Aaron Adams (Pacers, NBA); Aaron Adams (Heels, NCAAB). Narrow it with --sport.",
    );
    expect(describeError(missing, { notFound: 'Run `props games`.' }).message).toBe('No game pp_1. Run `props games`.');
    const down = new ServerError({ status: 503, code: 'upstream_unavailable', message: 'books are down' });
    expect(describeError(down).exitCode).toBe(1);
    expect(describeError(new Error('boom'))).toEqual({ message: 'Unexpected error: boom', exitCode: 1 });
  });
});
