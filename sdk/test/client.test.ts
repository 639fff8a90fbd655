/** The client over an injected fetch answering contract-shaped fixtures. */
import { describe, expect, it } from 'vitest';
import * as examples from '../../contract/test/examples';
import {
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  PropsFeed,
  PropsFeedError,
  RateLimitError,
  TimeoutError,
} from '../src/index';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

function fakeFetch(answers: Array<Response | Error>) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({
      url,
      method: String(init.method),
      headers: init.headers as Record<string, string>,
      body: init.body as string | undefined,
    });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, calls };
}

const options = { apiKey: 'pf_test', baseUrl: 'http://api.test/', maxRetries: 0 };

describe('PropsFeed requests', () => {
  it('sends the key as a bearer token and builds each route URL', async () => {
    const { fetch, calls } = fakeFetch([
      json(200, { sports: [examples.sport] }),
      json(200, { sport: 'nba', count: 1, games: [examples.game] }),
      json(200, examples.propsResult),
      json(200, examples.scanResponse),
      json(200, examples.keyInfo),
      json(200, { query: 'jokic', player: 'Nikola Jokić', count: 1, rows: [examples.scanRow] }),
      json(200, { player: 'Nikola Jokić', sport: 'nba', stats: [] }),
      json(200, { eventId: 'pp_8812345', sport: 'nba', player: 'Nikola Jokić', stat: 'pra', books: [] }),
      json(200, { sport: 'nba', stat: null, since: null, count: 0, movers: [] }),
      json(200, { sport: 'nba', stat: null, since: null, count: 0, movers: [] }),
    ]);
    const client = new PropsFeed({ ...options, fetch });
    expect(await client.sports()).toEqual({ sports: [examples.sport] });
    expect((await client.games({ sport: 'nba' })).games[0]?.id).toBe('pp_8812345');
    expect((await client.gameProps('pp_8812345', { stats: ['points', 'pra'] })).props).toHaveLength(1);
    expect((await client.scan({ stat: 'pra', limit: 20 })).rows[0]?.player).toBe('Nikola Jokić');
    expect((await client.me()).tier).toBe('pro');
    await client.playerProps({ name: 'jokic' });
    await client.playerContext({ name: 'Nikola Jokić', stat: 'pra' });
    await client.propHistory({ eventId: 'pp_8812345', player: 'Nikola Jokić', stat: 'pra' });
    await client.movement({ sport: 'nba', since: new Date('2026-11-21T12:00:00Z') });
    // The old name, deprecated for one release, is the same call.
    await client.movers({ sport: 'nba' });

    expect(calls.map((c) => c.url)).toEqual([
      'http://api.test/api/v1/sports',
      'http://api.test/api/v1/games?sport=nba',
      'http://api.test/api/v1/games/pp_8812345/props?stats=points%2Cpra',
      'http://api.test/api/v1/props?stat=pra&limit=20',
      'http://api.test/api/v1/me',
      'http://api.test/api/v1/props/player?name=jokic',
      'http://api.test/api/v1/context/player?name=Nikola%20Joki%C4%87&stat=pra',
      'http://api.test/api/v1/props/history?eventId=pp_8812345&player=Nikola%20Joki%C4%87&stat=pra',
      'http://api.test/api/v1/props/movement?sport=nba&since=2026-11-21T12%3A00%3A00.000Z',
      'http://api.test/api/v1/props/movement?sport=nba',
    ]);
    for (const call of calls) {
      expect(call.method).toBe('GET');
      expect(call.headers.authorization).toBe('Bearer pf_test');
    }
  });

  it('escapes an event id instead of letting it change the path', async () => {
    const { fetch, calls } = fakeFetch([json(404, { error: 'event_not_found', message: 'no such event' })]);
    await expect(new PropsFeed({ ...options, fetch }).gameProps('pp_1/../../me')).rejects.toBeInstanceOf(NotFoundError);
    expect(calls[0]?.url).toBe('http://api.test/api/v1/games/pp_1%2F..%2F..%2Fme/props');
  });

  it('posts createKey without a key header when none is set', async () => {
    const created = {
      key: `pf_${'a'.repeat(32)}`,
      keyPrefix: 'pf_aaaaa',
      tier: 'free',
      label: 'me',
      limits: examples.keyInfo.limits,
    };
    const { fetch, calls } = fakeFetch([json(201, created)]);
    const client = new PropsFeed({ baseUrl: 'http://api.test', apiKey: '', fetch });
    expect(await client.createKey({ email: 'me@example.com', label: 'me' })).toEqual(created);
    expect(calls[0]).toMatchObject({ method: 'POST', url: 'http://api.test/api/v1/keys' });
    expect(calls[0]?.headers.authorization).toBeUndefined();
    expect(JSON.parse(String(calls[0]?.body))).toEqual({ email: 'me@example.com', label: 'me' });
  });

  it('reads PROPS_API_KEY and PROPS_BASE_URL when not given', async () => {
    const saved = { key: process.env.PROPS_API_KEY, url: process.env.PROPS_BASE_URL };
    process.env.PROPS_API_KEY = 'pf_env';
    process.env.PROPS_BASE_URL = 'http://env.test:9000';
    try {
      const { fetch, calls } = fakeFetch([json(200, { sports: [] })]);
      await new PropsFeed({ fetch }).sports();
      expect(calls[0]?.url).toBe('http://env.test:9000/api/v1/sports');
      expect(calls[0]?.headers.authorization).toBe('Bearer pf_env');
    } finally {
      for (const [name, value] of [
        ['PROPS_API_KEY', saved.key],
        ['PROPS_BASE_URL', saved.url],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('keeps the raw ts-rest client reachable, answering instead of throwing', async () => {
    const { fetch } = fakeFetch([json(401, examples.apiError)]);
    const response = await new PropsFeed({ ...options, fetch }).raw.me();
    expect(response.status).toBe(401);
    expect(response.body).toEqual(examples.apiError);
  });
});

describe('PropsFeed errors', () => {
  it('throws the class of the status with the envelope', async () => {
    const { fetch } = fakeFetch([
      json(401, examples.apiError),
      json(403, { error: 'route_not_in_tier', message: 'history needs pro', requiredTier: 'pro' }),
    ]);
    const client = new PropsFeed({ ...options, fetch });
    await expect(client.me()).rejects.toMatchObject({
      constructor: AuthenticationError,
      status: 401,
      code: 'invalid_api_key',
    });
    await expect(client.propHistory({ eventId: 'pp_1', player: 'x', stat: 'points' })).rejects.toMatchObject({
      constructor: PermissionError,
      requiredTier: 'pro',
    });
  });

  it('turns a refused connection into a ConnectionError naming the URL', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const { fetch } = fakeFetch([refused]);
    const err = await new PropsFeed({ ...options, fetch }).sports().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ url: 'http://api.test/api/v1/sports', status: 0, code: 'connection_error' });
    expect((err as Error).message).toBe('Could not connect to http://api.test/api/v1/sports: ECONNREFUSED');
  });

  it('gives up with a TimeoutError after timeoutMs', async () => {
    const hanging = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const err = await new PropsFeed({ ...options, fetch: hanging, timeoutMs: 20 }).me().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toBe('No answer from http://api.test/api/v1/me within 20 ms');
  });

  it('retries a 429 after its Retry-After, then answers', async () => {
    const { fetch, calls } = fakeFetch([
      json(429, { error: 'rate_limited', message: 'slow down' }, { 'retry-after': '0' }),
      json(200, { sports: [] }),
    ]);
    expect(await new PropsFeed({ ...options, maxRetries: 2, fetch }).sports()).toEqual({ sports: [] });
    expect(calls).toHaveLength(2);
  });

  it('throws RateLimitError with retryAfter once retries are spent', async () => {
    const limited = () => json(429, { error: 'rate_limited', message: 'slow down' }, { 'retry-after': '0' });
    const { fetch, calls } = fakeFetch([limited(), limited(), limited()]);
    const err = await new PropsFeed({ ...options, maxRetries: 2, fetch }).sports().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfter).toBe(0);
    expect(calls).toHaveLength(3);
  });

  it('never retries the POST that issues a key', async () => {
    const { fetch, calls } = fakeFetch([
      json(429, { error: 'rate_limited', message: 'too many keys' }, { 'retry-after': '0' }),
    ]);
    const client = new PropsFeed({ ...options, maxRetries: 2, fetch });
    await expect(client.createKey({ email: 'a@b.co' })).rejects.toBeInstanceOf(RateLimitError);
    expect(calls).toHaveLength(1);
  });

  it('refuses a success answer that is not JSON (a base URL that is not the API)', async () => {
    const { fetch } = fakeFetch([
      new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    ]);
    await expect(new PropsFeed({ ...options, fetch }).sports()).rejects.toMatchObject({
      constructor: PropsFeedError,
      code: 'invalid_response',
    });
  });
});

describe('PropsFeed without a key or a server', () => {
  it('names the apiKey option and PROPS_API_KEY when the key is missing', async () => {
    const { fetch } = fakeFetch([json(401, { error: 'missing_api_key', message: 'No API key was sent.' })]);
    const err = await new PropsFeed({ baseUrl: 'http://api.test', fetch, maxRetries: 0 }).me().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as Error).message).toMatch(/^No API key was sent\. Pass `apiKey` to .*PROPS_API_KEY/);
  });

  it('fails a stream at once when the server never answers, saying where it looked', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const { fetch, calls } = fakeFetch([refused, refused, refused]);
    const started = Date.now();
    const stream = new PropsFeed({ baseUrl: 'http://api.test', apiKey: 'pf_x', fetch }).stream();
    const err = await stream.next().catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(calls).toHaveLength(1);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as Error).message).toBe(
      'Could not connect to http://api.test/api/v1/stream: ECONNREFUSED. Is the propsfeed server running there? Set `baseUrl` or PROPS_BASE_URL.',
    );
  });

  it('fails fast against a real dead port too', async () => {
    const started = Date.now();
    const stream = new PropsFeed({ baseUrl: 'http://127.0.0.1:1', apiKey: 'pf_x' }).stream();
    const err = await stream.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
