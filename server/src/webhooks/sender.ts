/**
 * One attempt: POST the body with its signed headers to the endpoint's URL, connecting to the
 * address checked just before (the pinned lookup), with a 15 s limit on the whole exchange.
 * Redirects are not followed; at most a short excerpt of the answer is read, for the delivery log.
 */

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { WEBHOOK_TIMEOUT_SECONDS } from '@propsfeed/contract';
import type { CheckedTarget } from './targets';

export interface SendRequest {
  target: CheckedTarget;
  headers: Record<string, string>;
  body: string;
}

export interface SendResult {
  /** null: no answer (timeout, refused, reset). */
  status: number | null;
  retryAfter?: string | string[] | undefined;
  latencyMs: number;
  /** Why it did not succeed: the error, or an excerpt of a non-2xx answer. */
  error: string | null;
}

/** Sends one attempt; never throws. */
export type Sender = (request: SendRequest) => Promise<SendResult>;

const EXCERPT_BYTES = 512;
const USER_AGENT = 'propsfeed-webhooks/1 (+https://www.standardwebhooks.com)';

/** Connects to the checked address, whatever the name resolves to by now. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    } else {
      callback(null, address, family);
    }
  };
}

function excerptOf(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (text.length < EXCERPT_BYTES) text += chunk;
    });
    res.on('end', () => resolve(text.slice(0, EXCERPT_BYTES)));
    res.on('error', () => resolve(text.slice(0, EXCERPT_BYTES)));
    res.on('aborted', () => resolve(text.slice(0, EXCERPT_BYTES)));
  });
}

export interface HttpSenderOptions {
  /** Milliseconds per attempt (default 15 s). */
  timeoutMs?: number;
  /** Connections kept per receiving host (default 8). */
  socketsPerHost?: number;
}

/** The real sender: Node's http/https with keep-alive agents. `close()` ends their idle connections. */
export function httpSender(opts: HttpSenderOptions = {}): Sender & { close(): void } {
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_SECONDS * 1000;
  const sockets = opts.socketsPerHost ?? 8;
  // As many kept idle as may be open: fewer, and a burst's connections are closed and opened again.
  const agentOptions = { keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, timeout: 60_000 };
  const http = new HttpAgent(agentOptions);
  const https = new HttpsAgent(agentOptions);
  const send: Sender = ({ target, headers, body }) =>
    new Promise<SendResult>((resolve) => {
      const started = performance.now();
      const { url, address } = target;
      const secure = url.protocol === 'https:';
      let settled = false;
      const finish = (result: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, latencyMs: Math.round(performance.now() - started) });
      };
      const req = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: 'POST',
          agent: secure ? https : http,
          lookup: pinnedLookup(address.address, address.family),
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': USER_AGENT,
          },
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const retryAfter = res.headers['retry-after'];
          if (status >= 200 && status < 300) {
            res.resume();
            res.on('end', () => finish({ status, retryAfter, error: null }));
            res.on('error', () => finish({ status, retryAfter, error: null }));
            return;
          }
          void excerptOf(res).then((text) => {
            const said = text.trim().replace(/\s+/g, ' ');
            finish({ status, retryAfter, error: `answered ${status}${said ? `: ${said.slice(0, 200)}` : ''}` });
          });
        },
      );
      const timer = setTimeout(() => {
        finish({ status: null, error: `no answer within ${timeoutMs / 1000} s` });
        req.destroy();
      }, timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        finish({ status: null, error: err.code ? `${err.code}: ${err.message}` : err.message });
      });
      req.end(body);
    });
  return Object.assign(send, {
    close() {
      http.destroy();
      https.destroy();
    },
  });
}
