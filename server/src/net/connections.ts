/**
 * Caps on client connections, so neither idle nor slow sockets can use up the process's file
 * descriptors or lock other clients out: the server's own outgoing sockets (book polls,
 * PostgreSQL, Redis) and files always have the reserve. At most `max` connections in all and
 * `perAddress` from one address (an IPv6 client's whole /64 counts as one address).
 *
 * When either cap is full, a new connection closes the worst one in its way (from its own
 * address when the address is full, else from all): the one waiting longest among those that
 * have not yet sent a whole request (connected and silent, or sending a body slowly), else the
 * one idle longest between requests; only when every connection is being answered (a stream,
 * a request in progress) is the newcomer refused.
 *
 * Deadlines: a connection must send its first request within `firstRequestMs` (Node's own
 * timers start only at a request's first byte); a request must arrive whole, headers and body,
 * within REQUEST_MS of its first byte, checked every second (Node checks every 30 s by default,
 * which let a 30 s deadline fire at 42–50 s).
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { networkOf } from './network';

export interface ConnectionLimits {
  max: number;
  perAddress: number;
  firstRequestMs: number;
  /** Time for a whole request to arrive from its first byte (default REQUEST_MS). */
  requestMs?: number;
  /** Peers the per-address cap does not apply to: trusted proxies, which carry every user's connections. */
  isProxy?: (address: string) => boolean;
}

export const DEFAULT_PER_ADDRESS = 256;
export const FIRST_REQUEST_MS = 10_000;
/** Idle time of a kept-alive connection between requests (above common balancers' 60 s). */
export const KEEP_ALIVE_MS = 65_000;
/** Time to receive a whole request, headers and body (at most 64 KiB), from its first byte. */
export const REQUEST_MS = 10_000;
/** How often connections past their deadlines are looked for (ours and Node's request timeout). */
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

/** Whose connections count together against the per-address cap: an IPv4 address, an IPv6 /64. */
export function connectionOwner(address: string): string {
  return address.includes(':') && !address.startsWith('::ffff:') ? networkOf(address) : address;
}

/**
 * Connections that may be closed to make room, each Set in the order they entered it (Sets keep
 * insertion order): `fresh` never sent a request, `receiving` are receiving a request's body,
 * `between` are kept alive between requests. A connection being answered is in none.
 */
interface Closable {
  fresh: Set<Socket>;
  receiving: Set<Socket>;
  between: Set<Socket>;
}

interface Owner extends Closable {
  connections: number;
}

interface Tracked {
  owner: Owner;
  ownerKey: string;
  /** Epoch ms it was opened, its body began, or its last request finished. */
  since: number;
  /** Requests received and not yet answered. */
  busy: number;
  /** Which of the closable sets it is in, if any (none while it is being answered). */
  where?: keyof Closable;
  /** The request whose body is arriving, while it is. */
  receiving?: IncomingMessage;
}

/** What a guarded server reports: how many connections were evicted, refused and timed out. */
export interface ConnectionStats {
  open: number;
  evicted: number;
  refused: number;
  timedOut: number;
}

const closable = (): Closable => ({ fresh: new Set(), receiving: new Set(), between: new Set() });

/** A request that has a body still to come (its headers have arrived). */
const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

export class ConnectionGuard {
  private readonly tracked = new Map<Socket, Tracked>();
  private readonly all: Closable = closable();
  private readonly owners = new Map<string, Owner>();
  private readonly timer: NodeJS.Timeout;
  readonly stats: ConnectionStats = { open: 0, evicted: 0, refused: 0, timedOut: 0 };

  constructor(
    server: Server,
    private readonly limits: ConnectionLimits,
    private readonly now: () => number = Date.now,
  ) {
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    const requestMs = limits.requestMs ?? REQUEST_MS;
    server.requestTimeout = requestMs;
    server.headersTimeout = Math.min(server.headersTimeout, requestMs);
    // createServer's option, read again when the server starts listening (Node 20 and 24).
    (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = SWEEP_MS;
    server.on('connection', (socket: Socket) => this.accept(socket));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.started(req, res));
    this.timer = setInterval(() => this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private accept(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const ownerKey = connectionOwner(address);
    if (!this.makeRoom(address, ownerKey)) {
      this.stats.refused += 1;
      socket.destroy();
      return;
    }
    // Looked up again: closing its last connection may have let the owner go.
    let owner = this.owners.get(ownerKey);
    if (!owner) {
      owner = { ...closable(), connections: 0 };
      this.owners.set(ownerKey, owner);
    }
    owner.connections += 1;
    const t: Tracked = { owner, ownerKey, since: this.now(), busy: 0 };
    this.tracked.set(socket, t);
    this.move(socket, t, 'fresh');
    this.stats.open = this.tracked.size;
    socket.once('close', () => this.forget(socket));
  }

  /** Room for one more connection from the address, under both caps; false when none can be made. */
  private makeRoom(address: string, ownerKey: string): boolean {
    const owner = this.owners.get(ownerKey);
    if (owner && owner.connections >= this.limits.perAddress && !this.limits.isProxy?.(address)) {
      if (!this.evictFrom(owner)) return false;
    }
    return this.tracked.size < this.limits.max || this.evictFrom(this.all);
  }

  /**
   * Closes the connection of `set` that has waited longest without sending a whole request
   * (silent since it opened, or its body still arriving), else the one idle longest between
   * requests; false when every one is being answered.
   */
  private evictFrom(set: Closable): boolean {
    const fresh = set.fresh.values().next().value;
    const upload = this.slowestUpload(set);
    const since = (s: Socket | undefined) =>
      s === undefined ? Number.POSITIVE_INFINITY : (this.tracked.get(s)?.since ?? 0);
    const victim = (since(upload) < since(fresh) ? upload : fresh) ?? set.between.values().next().value;
    if (victim === undefined) return false;
    this.stats.evicted += 1;
    victim.destroy();
    this.forget(victim);
    return true;
  }

  /**
   * The connection whose body has been arriving longest (with at most 64 KiB to send, the
   * slowest); requests whose body has all arrived are being answered, and leave the set.
   */
  private slowestUpload(set: Closable): Socket | undefined {
    for (const socket of set.receiving) {
      const t = this.tracked.get(socket) as Tracked;
      if (t.receiving && !t.receiving.complete) return socket;
      t.receiving = undefined;
      this.move(socket, t, undefined);
    }
    return undefined;
  }

  /** Moves a connection to the end of one of the closable sets (all and its owner's), or out of them. */
  private move(socket: Socket, t: Tracked, to: keyof Closable | undefined): void {
    if (t.where !== undefined) {
      this.all[t.where].delete(socket);
      t.owner[t.where].delete(socket);
    }
    t.where = to;
    if (to !== undefined) {
      this.all[to].add(socket);
      t.owner[to].add(socket);
    }
  }

  private started(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const t = this.tracked.get(socket);
    if (!t) return;
    t.busy += 1;
    if (hasBody(req)) {
      t.receiving = req;
      t.since = this.now();
      this.move(socket, t, 'receiving');
    } else if (t.where !== undefined) {
      this.move(socket, t, undefined);
    }
    res.on('close', this.answered);
  }

  /**
   * A response's 'close' listener: one function for all of them (`this` is the response), not a
   * closure made per request; a response closes once, so it needs no `once` wrapper either.
   */
  private readonly answered = ((guard: ConnectionGuard) =>
    function answered(this: ServerResponse) {
      guard.finished(this.req);
    })(this);

  private finished(req: IncomingMessage): void {
    const socket = req.socket;
    const t = this.tracked.get(socket);
    if (!t) return;
    t.busy -= 1;
    if (t.receiving === req) t.receiving = undefined;
    if (t.busy > 0) {
      if (t.where === 'receiving' && t.receiving === undefined) this.move(socket, t, undefined);
      return;
    }
    t.since = this.now();
    this.move(socket, t, 'between');
  }

  private forget(socket: Socket): void {
    const t = this.tracked.get(socket);
    if (!t) return;
    this.tracked.delete(socket);
    this.move(socket, t, undefined);
    t.owner.connections -= 1;
    if (t.owner.connections === 0) this.owners.delete(t.ownerKey);
    this.stats.open = this.tracked.size;
  }

  /** Closes connections that have sent no complete request within firstRequestMs, oldest first. */
  private sweep(): void {
    const before = this.now() - this.limits.firstRequestMs;
    for (const socket of this.all.fresh) {
      const t = this.tracked.get(socket);
      if (t && t.since > before) break;
      this.stats.timedOut += 1;
      socket.destroy();
      this.forget(socket);
    }
  }
}
