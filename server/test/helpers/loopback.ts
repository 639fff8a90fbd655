/**
 * HTTP on loopback from any address of 127/8 (Linux routes all of it to lo, so a client can
 * bind 127.x.y.z): many clients' worth of source addresses from one test process.
 */
import { type Agent, request } from 'node:http';

export interface LoopbackAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Milliseconds from sending to the last byte of the answer. */
  ms: number;
}

export interface LoopbackRequest {
  port: number;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** The source address (127.x.y.z); default the kernel's choice. */
  localAddress?: string;
  /** Default: a new connection closed after the answer. */
  agent?: Agent;
  timeoutMs?: number;
}

/** The `i`-th of many loopback source addresses, each in a /24 of its own for i < 64,770. */
export function loopbackAddress(i: number, host = 1): string {
  return `127.${1 + (Math.floor(i / 254) % 254)}.${1 + (i % 254)}.${host}`;
}

export function loopbackRequest(r: LoopbackRequest): Promise<LoopbackAnswer> {
  const body = r.json === undefined ? undefined : JSON.stringify(r.json);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: r.port,
        method: r.method ?? 'GET',
        path: r.path,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...r.headers },
        ...(r.localAddress ? { localAddress: r.localAddress } : {}),
        agent: r.agent ?? false,
        timeout: r.timeoutMs ?? 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, ms: performance.now() - started }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${r.path} within ${r.timeoutMs ?? 10_000} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The q-quantile (0..1) of the values. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
