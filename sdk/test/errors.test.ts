import { isPropsApiError } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConnectionError,
  errorFromResponse,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  PropsFeedError,
  parseRetryAfter,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '../src/errors';

describe('errorFromResponse', () => {
  it('picks the class by status', () => {
    const cases: [number, typeof PropsFeedError][] = [
      [400, InvalidRequestError],
      [405, InvalidRequestError],
      [413, InvalidRequestError],
      [415, InvalidRequestError],
      [401, AuthenticationError],
      [403, PermissionError],
      [404, NotFoundError],
      [429, RateLimitError],
      [500, ServerError],
      [503, ServerError],
      [418, PropsFeedError],
    ];
    for (const [status, cls] of cases) {
      const err = errorFromResponse(status, { error: 'x', message: 'y' });
      expect(err).toBeInstanceOf(cls);
      expect(err.constructor).toBe(cls);
      expect(err).toBeInstanceOf(Error);
      expect(err.name).toBe(cls.name);
    }
  });

  it('carries the envelope, the request id and the 403 tier', () => {
    const headers = new Headers({ 'x-request-id': 'req-1' });
    const body = { error: 'sport_not_in_tier', message: 'mlb is not in the free tier', requiredTier: 'pro' };
    const err = errorFromResponse(403, body, headers);
    expect(err).toMatchObject({ status: 403, code: 'sport_not_in_tier', requestId: 'req-1', requiredTier: 'pro' });
    expect(err.message).toBe('mlb is not in the free tier');
    expect(isPropsApiError(err)).toBe(true);
  });

  it('reads Retry-After on a 429', () => {
    const err = errorFromResponse(
      429,
      { error: 'rate_limited', message: 'slow down' },
      new Headers({ 'retry-after': '12' }),
    );
    expect(err.retryAfter).toBe(12);
  });

  it('keeps candidates of an ambiguous name', () => {
    const err = errorFromResponse(400, { error: 'invalid_request', message: 'ambiguous', candidates: ['A B', 'A C'] });
    expect(err.candidates).toEqual(['A B', 'A C']);
  });

  it('still says something useful when the body is not the envelope', () => {
    const err = errorFromResponse(502, '<html>Bad Gateway</html>');
    expect(err).toBeInstanceOf(ServerError);
    expect(err).toMatchObject({ code: 'internal_error', message: '<html>Bad Gateway</html>' });
    expect(errorFromResponse(404, undefined).message).toBe('HTTP 404');
  });
});

describe('connection errors', () => {
  it('have status 0, the URL tried, and a timeout is a connection error', () => {
    const err = new TimeoutError({ code: 'timeout', message: 'late', url: 'http://x/api/v1/me' });
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ status: 0, url: 'http://x/api/v1/me', name: 'TimeoutError' });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('30')).toBe(30);
    const now = Date.parse('2026-11-22T00:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Sat, 21 Nov 2026 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
