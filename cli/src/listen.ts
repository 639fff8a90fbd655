/**
 * `props webhooks listen`: a receiver on 127.0.0.1 for development. Each delivery is verified
 * with the Standard Webhooks library (the SDK's verifyWebhook) and printed as one line a person
 * reads (time, type, what happened, webhook-id), or, piped, as tab-separated fields; verified
 * deliveries are answered 200, others 401 and shown as refused. Runs until the signal.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { WebhookEvent } from '@propsfeed/contract';
import { verifyWebhook } from '@propsfeed/sdk';
import { CliError } from './errors';
import { type Clock, formatClockTime } from './output/format';
import type { Output } from './output/output';
import { printable } from './output/printable';

export interface ListenOptions {
  port: number;
  secret: string;
  json: boolean;
  out: Output;
  clock: Clock;
  summary: (event: WebhookEvent) => string;
  /** Ends the receiver (Ctrl-C). */
  signal?: AbortSignal;
  host?: string;
}

/** Bodies larger than this are refused (413) unread. */
const MAX_BODY = 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(undefined));
  });
}

/** One printed line for a delivery: verified (its summary) or refused (why). */
export function deliveryLine(
  out: Output,
  clock: Clock,
  id: string,
  verdict: { event: WebhookEvent; summary: string } | { refused: string },
): string {
  const at = clock.now();
  const safeId = printable(id || '(no webhook-id)');
  if (!out.terminal) {
    const fields =
      'event' in verdict
        ? [at.toISOString(), 'verified', verdict.event.type, verdict.summary, id]
        : [at.toISOString(), 'refused', '', verdict.refused, id];
    return `${fields.map(printable).join('\t')}\n`;
  }
  const time = out.c.dim(formatClockTime(at, clock));
  if ('event' in verdict) {
    return `${time}  ${out.c.green('✓')} ${out.c.bold(verdict.event.type.padEnd(15))} ${printable(verdict.summary)}  ${out.c.dim(safeId)}\n`;
  }
  return `${time}  ${out.c.red('✗')} ${out.c.red('not verified'.padEnd(15))} ${printable(verdict.refused)}  ${out.c.dim(safeId)}\n`;
}

export async function listenForWebhooks(opts: ListenOptions): Promise<void> {
  const { out } = opts;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const body = await readBody(req);
    if (body === undefined) {
      res.writeHead(413).end();
      return;
    }
    const id = String(req.headers['webhook-id'] ?? '');
    let event: WebhookEvent;
    try {
      event = verifyWebhook(body, req.headers, opts.secret);
    } catch (err) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('signature not verified');
      out.stdout.write(deliveryLine(out, opts.clock, id, { refused: (err as Error).message }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    if (opts.json) out.stdout.write(`${JSON.stringify(event)}\n`);
    else out.stdout.write(deliveryLine(out, opts.clock, id, { event, summary: opts.summary(event) }));
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new CliError(`Port ${opts.port} is in use; choose another with --port.`)
          : new CliError(`Cannot listen on ${host}:${opts.port}: ${err.message}`),
      ),
    );
    server.listen(opts.port, host, resolve);
  });
  out.message(
    `Listening on http://${host}:${opts.port}/ for webhook deliveries; each is verified with its secret. Ctrl-C to stop.`,
  );
  await new Promise<void>((resolve) => {
    if (opts.signal?.aborted) return resolve();
    opts.signal?.addEventListener('abort', () => resolve(), { once: true });
    if (!opts.signal) server.once('close', () => resolve());
  });
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
