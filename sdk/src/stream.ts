/**
 * The board's changes as an async iterable over GET /api/v1/stream (Server-Sent Events), for
 * Node and browsers alike (fetch and a stream reader, no EventSource): each event typed, and
 * a dropped connection resumed with Last-Event-ID after a backoff, so no event is missed or
 * repeated. An AbortSignal (or leaving the loop) stops it.
 */
import type { SportId, StreamEvent } from '@propsfeed/contract';
import { createParser } from 'eventsource-parser';
import { ConnectionError, errorFromResponse, parseRetryAfter } from './errors';
import { backoffDelayMs } from './retry';
import { describeFetchFailure, type FetchLike } from './transport';

export interface StreamParams {
  /** One sport or several; every sport your tier allows when absent. */
  sport?: SportId | readonly SportId[];
  /** Stat keys to keep. */
  stats?: string | readonly string[];
  /** Only this game (either book's id). */
  eventId?: string;
  /** Only this player. */
  player?: string;
  /**
   * Only props whose edge is at least this (pro and above): one falling below arrives as
   * `prop.removed` with reason `below_min_edge`, one rising to it as `prop`.
   */
  minEdge?: number;
  /** Resume after this event id (what a previous stream's last event carried). */
  lastEventId?: string;
  /** Stops the stream: the loop ends without an error. */
  signal?: AbortSignal;
  /** Reconnections in a row that may fail before the error is thrown. Default 8. */
  maxReconnects?: number;
}

/** One event of the stream, with the id to resume after it (absent on heartbeats and `end`). */
export type StreamMessage = StreamEvent & { id?: string };

export interface StreamTransport {
  baseUrl: string;
  apiKey: string | undefined;
  fetch: FetchLike;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Errors worth a reconnection: no answer, 429 rate limits (not the stream cap), 5xx. */
function retryable(err: unknown): boolean {
  if (err instanceof ConnectionError) return true;
  const status = (err as { status?: number }).status ?? 0;
  const code = (err as { code?: string }).code;
  return status >= 500 || (status === 429 && code !== 'too_many_streams');
}

const abortableSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export function streamUrl(baseUrl: string, params: StreamParams): string {
  const query = new URLSearchParams();
  const list = (v: string | readonly string[] | undefined) => (typeof v === 'string' ? v : v?.join(','));
  const sport = list(params.sport);
  const stats = list(params.stats);
  if (sport) query.set('sport', sport);
  if (stats) query.set('stats', stats);
  if (params.eventId) query.set('eventId', params.eventId);
  if (params.player) query.set('player', params.player);
  if (params.minEdge !== undefined) query.set('minEdge', String(params.minEdge));
  const text = query.toString();
  return `${baseUrl}/api/v1/stream${text ? `?${text}` : ''}`;
}

export async function* openStream(transport: StreamTransport, params: StreamParams): AsyncGenerator<StreamMessage> {
  const sleep = transport.sleep ?? abortableSleep;
  const maxReconnects = params.maxReconnects ?? 8;
  const url = streamUrl(transport.baseUrl, params);
  let lastEventId = params.lastEventId;
  let failures = 0;
  // A server that never answered is most likely not running (or the base URL is wrong): say so at
  // once rather than back off for half a minute. Reconnecting is for streams that were open.
  const opened = { once: false };
  while (!params.signal?.aborted) {
    let waitMs: number | undefined;
    try {
      for await (const message of connect(transport, url, lastEventId, params.signal, opened)) {
        failures = 0;
        if (message.id !== undefined) lastEventId = message.id;
        yield message;
      }
    } catch (err) {
      if (params.signal?.aborted) return;
      if (!opened.once && err instanceof ConnectionError) throw err;
      if (!retryable(err) || failures >= maxReconnects) throw err;
      const retryAfter = (err as { retryAfter?: number }).retryAfter;
      waitMs = retryAfter !== undefined ? retryAfter * 1000 : backoffDelayMs(failures);
      failures++;
    }
    if (params.signal?.aborted) return;
    // The server ended the stream (an `end` event, a restart): resume at once the first time, then back off.
    await sleep(waitMs ?? (failures === 0 ? 0 : backoffDelayMs(failures)), params.signal);
    if (waitMs === undefined) failures++;
  }
}

/** One connection: its events until the server closes it. Throws the API's error for a refusal. */
async function* connect(
  transport: StreamTransport,
  url: string,
  lastEventId: string | undefined,
  signal: AbortSignal | undefined,
  opened: { once: boolean },
): AsyncGenerator<StreamMessage> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (transport.apiKey) headers.authorization = `Bearer ${transport.apiKey}`;
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  let response: Response;
  try {
    response = await transport.fetch(url, { method: 'GET', headers, ...(signal ? { signal } : {}) });
  } catch (err) {
    const advice = opened.once ? '' : '. Is the propsfeed server running there? Set `baseUrl` or PROPS_BASE_URL.';
    const message = `Could not connect to ${url}: ${describeFetchFailure(err)}${advice}`;
    throw new ConnectionError({ code: 'connection_error', message, url, cause: err });
  }
  opened.once = true;
  if (response.status !== 200 || !response.body) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    const err = errorFromResponse(response.status, body, response.headers);
    if (response.status === 429 && err.retryAfter === undefined) {
      (err as { retryAfter?: number }).retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    }
    throw err;
  }
  const queue: StreamMessage[] = [];
  const parser = createParser({
    onEvent(event) {
      const data = JSON.parse(event.data) as StreamEvent;
      queue.push(event.id === undefined || event.id === '' ? data : { ...data, id: event.id });
    },
  });
  const body = response.body;
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  // Aborting stops the read at once, and with it the connection (not every fetch does on its own).
  const cancel = () => {
    reader.cancel().catch(() => {});
    body.cancel().catch(() => {});
  };
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal?.aborted) return;
        throw new ConnectionError({
          code: 'connection_error',
          message: `The stream from ${url} broke`,
          url,
          cause: err,
        });
      }
      if (chunk.done) return;
      parser.feed(chunk.value);
      while (queue.length > 0) yield queue.shift() as StreamMessage;
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    cancel();
  }
}
