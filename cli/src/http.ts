/**
 * The CLI's `fetch` for the SDK, on node:http. Node's global fetch (undici) costs a short-lived
 * command about 0.3 s: loading it, and keeping the process alive after the answer until its
 * socket pool lets go. Failures look like fetch's (`TypeError` with the socket error as `cause`),
 * so the SDK and the CLI's messages treat both alike.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { FetchLike } from '@propsfeed/sdk';

/** Statuses whose Response must have no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

export const nodeFetch: FetchLike = (input, init) =>
  new Promise<Response>((resolve, reject) => {
    const url = new URL(input);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const failed = (cause: unknown) => reject(new TypeError('fetch failed', { cause }));
    const req = send(url, {
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string> | undefined,
      signal: init.signal ?? undefined,
      agent: false,
    });
    req.once('error', failed);
    req.once('response', (res) => {
      // A stream (GET /api/v1/stream) is read as it arrives; every other answer whole.
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        const body = Readable.toWeb(res) as ReadableStream<Uint8Array>;
        resolve(new Response(body, { status: res.statusCode ?? 0, headers: headersOf(res) }));
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', failed);
      res.once('end', () => {
        const status = res.statusCode ?? 0;
        const body = NO_BODY.has(status) ? null : Buffer.concat(chunks);
        resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers: headersOf(res) }));
      });
    });
    req.end(typeof init.body === 'string' ? init.body : undefined);
  });
