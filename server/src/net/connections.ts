/**
 * Caps on client connections, so idle sockets cannot use up the process's file descriptors:
 * the server's own outgoing sockets (book polls, PostgreSQL, Redis) and files always have
 * the reserve. At most `max` connections in all and `perAddress` from one address; when full,
 * a new connection evicts the one idle longest (first those that never sent a request, then
 * kept-alive ones between requests), else it is closed. A connection that sends no complete
 * request within `firstRequestMs` is closed: Node's own headersTimeout runs only while a
 * request is being received, not before its first byte.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  max: number;
  perAddress: number;
  firstRequestMs: number;
  /** Peers the per-address cap does not apply to: trusted proxies, which carry every user's connections. */
  isProxy?: (address: string) => boolean;
}

export const DEFAULT_PER_ADDRESS = 256;
export const FIRST_REQUEST_MS = 10_000;
/** Idle time of a kept-alive connection between requests (above common balancers' 60 s). */
export const KEEP_ALIVE_MS = 65_000;
/** Time to receive a whole request, headers and body. */
export const REQUEST_MS = 30_000;
/** How often connections past their first-request time are looked for. */
const SWEEP_MS = 1_000;

/** File descriptors kept from client connections: 5% of the limit, at least 256. */
export function fdReserve(fdLimit: number): number {
  return Math.max(256, Math.floor(fdLimit * 0.05));
}

/** The process's soft limit on open files (Linux /proc), or undefined where it cannot be read. */
export function openFileLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined;
    }
  }
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(text)?.[1];
  return soft === undefined || soft === 'unlimited' ? undefined : Number(soft);
}

/** The default connection cap: the open-file limit less the reserve (1,024 assumed where unknown). */
export function defaultMaxConnections(fdLimit = openFileLimit() ?? 1_024): number {
  return Math.max(16, fdLimit - fdReserve(fdLimit));
}

interface Tracked {
  address: string;
  /** Epoch ms it was opened, or its last request finished. */
  since: number;
  /** Requests received and not yet answered. */
  busy: number;
  requested: boolean;
}

/** What a guarded server reports: how many connections were evicted, refused and timed out. */
export interface ConnectionStats {
  open: number;
  evicted: number;
  refused: number;
  timedOut: number;
}

export class ConnectionGuard {
  private readonly tracked = new Map<Socket, Tracked>();
  /** Idle connections, longest idle first (Sets keep insertion order): never requested, then between requests. */
  private readonly fresh = new Set<Socket>();
  private readonly between = new Set<Socket>();
  private readonly perAddress = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  readonly stats: ConnectionStats = { open: 0, evicted: 0, refused: 0, timedOut: 0 };

  constructor(
    server: Server,
    private readonly limits: ConnectionLimits,
    private readonly now: () => number = Date.now,
  ) {
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.requestTimeout = REQUEST_MS;
    server.headersTimeout = Math.min(server.headersTimeout, REQUEST_MS);
    server.on('connection', (socket: Socket) => this.accept(socket));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.started(req.socket, res));
    this.timer = setInterval(() => this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private accept(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    if ((this.perAddress.get(address) ?? 0) >= this.limits.perAddress && !this.limits.isProxy?.(address)) {
      this.stats.refused += 1;
      socket.destroy();
      return;
    }
    if (this.tracked.size >= this.limits.max) {
      const idlest = this.fresh.values().next().value ?? this.between.values().next().value;
      if (idlest === undefined) {
        this.stats.refused += 1;
        socket.destroy();
        return;
      }
      this.stats.evicted += 1;
      idlest.destroy();
      this.forget(idlest);
    }
    this.tracked.set(socket, { address, since: this.now(), busy: 0, requested: false });
    this.fresh.add(socket);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    this.stats.open = this.tracked.size;
    socket.once('close', () => this.forget(socket));
  }

  private started(socket: Socket, res: ServerResponse): void {
    const t = this.tracked.get(socket);
    if (!t) return;
    t.requested = true;
    t.busy += 1;
    this.fresh.delete(socket);
    this.between.delete(socket);
    res.once('close', () => {
      t.busy -= 1;
      if (t.busy > 0 || !this.tracked.has(socket)) return;
      t.since = this.now();
      this.between.add(socket);
    });
  }

  private forget(socket: Socket): void {
    const t = this.tracked.get(socket);
    if (!t) return;
    this.tracked.delete(socket);
    this.fresh.delete(socket);
    this.between.delete(socket);
    const left = (this.perAddress.get(t.address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(t.address, left);
    else this.perAddress.delete(t.address);
    this.stats.open = this.tracked.size;
  }

  /** Closes connections that have sent no complete request within firstRequestMs, oldest first. */
  private sweep(): void {
    const before = this.now() - this.limits.firstRequestMs;
    for (const socket of this.fresh) {
      const t = this.tracked.get(socket);
      if (t && t.since > before) break;
      this.stats.timedOut += 1;
      socket.destroy();
      this.forget(socket);
    }
  }
}
