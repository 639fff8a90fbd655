/**
 * A webhook receiver for tests, on loopback: it verifies every delivery with the
 * `standardwebhooks` package (the spec's library, not propsfeed's code), records it, and
 * answers with the status a test scripts (default 200).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEvent } from '@propsfeed/contract';
import { Webhook } from 'standardwebhooks';

export interface Received {
  /** The path it was POSTed to (tests give each endpoint its own). */
  path: string;
  id: string;
  timestamp: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Set when the delivery verified. */
  event?: WebhookEvent;
  /** Why it did not verify. */
  refused?: string;
  /** The status answered. */
  answered: number;
  /** Date.now() on arrival. */
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  /** Every delivery, in arrival order. */
  received: Received[];
  /** The secrets deliveries are verified with (set after registering the endpoint). */
  secrets: string[];
  /** The answer to the n-th delivery (0-based) is its status; default 200. */
  answer: (n: number, delivery: Received) => number | { status: number; headers?: Record<string, string> };
  /** Called on each arrival before answering (a test may kill the server there). */
  onArrival?: (delivery: Received) => void | Promise<void>;
  /** Events that verified, each webhook-id once (first arrival). */
  events(): WebhookEvent[];
  waitFor(check: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const header = (h: IncomingHttpHeaders, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
};

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const receiver: Receiver = {
    url: '',
    port: 0,
    received,
    secrets: [],
    answer: () => 200,
    events() {
      const seen = new Set<string>();
      const out: WebhookEvent[] = [];
      for (const r of received) {
        if (!r.event || seen.has(r.id)) continue;
        seen.add(r.id);
        out.push(r.event);
      }
      return out;
    },
    async waitFor(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!check(received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met in time (${received.length} received)`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      body += d;
    });
    req.on('end', async () => {
      const delivery: Received = {
        path: req.url ?? '',
        id: header(req.headers, 'webhook-id'),
        timestamp: Number(header(req.headers, 'webhook-timestamp')),
        headers: req.headers,
        body,
        answered: 0,
        at: Date.now(),
      };
      const headers = {
        'webhook-id': delivery.id,
        'webhook-timestamp': header(req.headers, 'webhook-timestamp'),
        'webhook-signature': header(req.headers, 'webhook-signature'),
      };
      const reasons: string[] = [];
      for (const secret of receiver.secrets) {
        try {
          delivery.event = new Webhook(secret).verify(body, headers) as WebhookEvent;
          break;
        } catch (err) {
          reasons.push((err as Error).message);
        }
      }
      if (!delivery.event) delivery.refused = reasons.join('; ') || 'no secret to verify with';
      const n = received.length;
      received.push(delivery);
      await receiver.onArrival?.(delivery);
      const answer = delivery.event ? receiver.answer(n, delivery) : 400;
      const { status, headers: extra } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      delivery.answered = status;
      res.writeHead(status, { 'content-type': 'text/plain', ...extra });
      res.end(status >= 300 ? `refused (${status})` : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}

/**
 * Ids that arrived more than once other than as a retry: a webhook-id may arrive twice only
 * when an attempt went unanswered in time (on a busy machine) and was sent again, the same
 * message, so the delivery log counts as many attempts. Empty when every repeat is such.
 */
export async function retriedOnly(receiver: Receiver, attemptsOf: (id: string) => Promise<number>): Promise<string[]> {
  const arrivals = new Map<string, Received[]>();
  for (const r of receiver.received) arrivals.set(r.id, [...(arrivals.get(r.id) ?? []), r]);
  const wrong: string[] = [];
  for (const [id, all] of arrivals) {
    if (all.length === 1) continue;
    if (all.some((r) => r.body !== all[0]?.body)) wrong.push(`${id}: different bodies under one id`);
    const attempts = await attemptsOf(id);
    if (attempts < all.length) wrong.push(`${id}: arrived ${all.length} times, ${attempts} attempts logged`);
  }
  return wrong;
}
