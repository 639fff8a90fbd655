/**
 * The ts-rest fetcher the client runs on: the injected `fetch`, a timeout per attempt, and
 * retries decided by the retry policy. Error answers are returned, not thrown, so the raw
 * ts-rest client keeps its `{status, body, headers}` results; only a missing answer throws.
 */
import type { ApiFetcher, ApiFetcherArgs } from '@ts-rest/core';
import { ConnectionError, parseRetryAfter, TimeoutError } from './errors';
import { type AttemptOutcome, retryDecision } from './retry';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  fetch: FetchLike;
  timeoutMs: number;
  maxRetries: number;
  maxRetryAfterSeconds?: number;
  /** Injectable for tests; defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface RawResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A readable reason from what fetch threw: Node puts the socket error (ECONNREFUSED, ...) in `cause`. */
export function describeFetchFailure(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string' && cause.message) return cause.message;
  return err instanceof Error ? err.message : String(err);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

async function attempt(args: ApiFetcherArgs, opts: TransportOptions): Promise<RawResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  try {
    const response = await opts.fetch(args.path, {
      method: args.method,
      headers: args.headers,
      body: args.body ?? undefined,
      signal: controller.signal,
    });
    return { status: response.status, body: await readBody(response), headers: response.headers };
  } catch (err) {
    if (controller.signal.aborted) {
      throw new TimeoutError({
        code: 'timeout',
        message: `No answer from ${args.path} within ${opts.timeoutMs} ms`,
        url: args.path,
        cause: err,
      });
    }
    throw new ConnectionError({
      code: 'connection_error',
      message: `Could not connect to ${args.path}: ${describeFetchFailure(err)}`,
      url: args.path,
      cause: err,
    });
  } finally {
    clearTimeout(timer);
  }
}

export function createFetcher(opts: TransportOptions): ApiFetcher {
  const sleep = opts.sleep ?? defaultSleep;
  return async (args) => {
    for (let retriesSoFar = 0; ; retriesSoFar++) {
      let outcome: AttemptOutcome;
      let result: RawResponse | undefined;
      let failure: unknown;
      try {
        result = await attempt(args, opts);
        if (result.status < 400) return result;
        outcome = {
          kind: 'response',
          status: result.status,
          retryAfter: parseRetryAfter(result.headers.get('retry-after')),
        };
      } catch (err) {
        if (!(err instanceof ConnectionError)) throw err;
        failure = err;
        outcome = { kind: 'connection' };
      }
      const decision = retryDecision({
        method: args.method,
        retriesSoFar,
        maxRetries: opts.maxRetries,
        outcome,
        maxRetryAfterSeconds: opts.maxRetryAfterSeconds,
        random: opts.random,
      });
      if (!decision.retry) {
        if (result) return result;
        throw failure;
      }
      await sleep(decision.delayMs);
    }
  };
}
