/**
 * A Server-Sent Events client for the stream tests: opens GET /api/v1/stream over real HTTP,
 * parses each event (id and JSON data) as it arrives, and can be dropped at any moment.
 */
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import type { StreamEvent } from '@propsfeed/contract';

export interface ReceivedEvent {
  id: string | undefined;
  data: StreamEvent;
  /** The data as sent, byte for byte. */
  raw: string;
}

export interface SseClient {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body of an answer that is not a stream (an error envelope). */
  body: string;
  events: ReceivedEvent[];
  /** The id of the last event that carried one. */
  lastId: string | undefined;
  /** Resolves once `count` events (of `type`, when given) have arrived. */
  waitFor(count: number, type?: StreamEvent['type'], timeoutMs?: number): Promise<ReceivedEvent[]>;
  /** Resolves when the server closes the stream. */
  closed: Promise<void>;
  /** Stops reading from the socket (a slow consumer). */
  pause(): void;
  resume(): void;
  close(): void;
}

export function openStream(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest;
    const events: ReceivedEvent[] = [];
    const waiters = new Set<() => void>();
    let closeResolve: () => void = () => {};
    const closed = new Promise<void>((r) => {
      closeResolve = r;
    });
    req = request(`${baseUrl}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: '',
        events,
        lastId: undefined,
        closed,
        waitFor(count, type, timeoutMs = 5_000) {
          const matching = () => events.filter((e) => type === undefined || e.data.type === type);
          return new Promise((done, fail) => {
            const check = () => {
              const found = matching();
              if (found.length >= count) {
                waiters.delete(check);
                clearTimeout(timer);
                done(found);
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`waited ${timeoutMs} ms for ${count} ${type ?? ''} events; got ${matching().length}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        pause: () => res.pause(),
        resume: () => res.resume(),
        close: () => req.destroy(),
      };
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (client.status !== 200) {
          client.body += chunk;
          return;
        }
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id: string | undefined;
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data !== '') {
            events.push({ id, data: JSON.parse(data) as StreamEvent, raw: data });
            if (id !== undefined) client.lastId = id;
          }
          end = buffer.indexOf('\n\n');
        }
        for (const w of [...waiters]) w();
      });
      res.on('close', closeResolve);
      res.on('error', () => {});
      resolve(client);
    });
    req.on('error', (err) => {
      closeResolve();
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
    req.end();
  });
}
