/**
 * One ingest leader among the replicas: a lease in Redis (`SET NX PX`), renewed well inside
 * its lifetime. A leader that dies stops renewing and another replica takes the lease once it
 * expires; a leader that cannot reach Redis steps down on its own before the lease can have
 * expired, so two replicas never believe they lead at once. The lease's token also fences the
 * board stream: only the holder's writes are accepted (cluster/replication.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface LeaderLeaseOptions {
  redis: Redis;
  /** The lease's Redis key. */
  key: string;
  /** Lease lifetime; a dead leader is replaced within about this plus `retryEveryMs`. */
  ttlMs?: number;
  /** How often a follower tries to take the lease. */
  retryEveryMs?: number;
  /** Called when this replica becomes the leader; lead until `onLost`. */
  onAcquired: (token: string) => void | Promise<void>;
  /** Called when this replica stops leading (lease lost, Redis unreachable, or `stop`). */
  onLost: () => void | Promise<void>;
  onError?: (err: unknown) => void;
}

// KEYS: lease. ARGV: token, ttl. Takes a free lease, or one we still hold after stepping down.
const ACQUIRE = `
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;
// KEYS: lease. ARGV: token, ttl. Extends the lease only if we still hold it.
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;
// KEYS: lease. ARGV: token. Gives the lease up only if we still hold it.
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

interface LeaseRedis extends Redis {
  pfLeaseAcquire(key: string, token: string, ttlMs: number): Promise<number>;
  pfLeaseRenew(key: string, token: string, ttlMs: number): Promise<number>;
  pfLeaseRelease(key: string, token: string): Promise<number>;
}

export class LeaderLease {
  /** Unique to this replica's run: identifies the holder in Redis. */
  readonly token = `${process.pid}-${randomBytes(8).toString('hex')}`;
  private readonly redis: LeaseRedis;
  private readonly ttlMs: number;
  private readonly retryEveryMs: number;
  private leading = false;
  private timer: NodeJS.Timeout | undefined;
  /** Fires when the lease may be about to expire unrenewed: the leader steps down first. */
  private deadline: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;
  /** No attempt to lead before this (epoch ms): set by `resign`. */
  private holdOffUntil = 0;

  constructor(private readonly opts: LeaderLeaseOptions) {
    this.ttlMs = opts.ttlMs ?? 5_000;
    this.retryEveryMs = opts.retryEveryMs ?? 1_000;
    if (!('pfLeaseRenew' in opts.redis)) {
      opts.redis.defineCommand('pfLeaseAcquire', { numberOfKeys: 1, lua: ACQUIRE });
      opts.redis.defineCommand('pfLeaseRenew', { numberOfKeys: 1, lua: RENEW });
      opts.redis.defineCommand('pfLeaseRelease', { numberOfKeys: 1, lua: RELEASE });
    }
    this.redis = opts.redis as LeaseRedis;
  }

  isLeader(): boolean {
    return this.leading;
  }

  /** Tries at once, then keeps trying (as follower) or renewing (as leader). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.tick();
    this.schedule();
  }

  /** Stops leading (releasing the lease so a follower takes over at once) and stops trying. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    if (this.leading) {
      await this.redis.pfLeaseRelease(this.opts.key, this.token).catch(this.report);
      await this.stepDown();
    }
  }

  /**
   * Gives the lease up (this replica cannot lead now) and tries again, like a follower, only
   * after `holdOffMs`, leaving the lead to another replica meanwhile.
   */
  async resign(holdOffMs = 0): Promise<void> {
    this.holdOffUntil = Date.now() + holdOffMs;
    if (!this.leading) return;
    await this.redis.pfLeaseRelease(this.opts.key, this.token).catch(this.report);
    await this.stepDown();
  }

  private schedule(): void {
    if (this.stopped) return;
    // A leader renews three times per lifetime, so one slow round trip never loses the lease.
    const every = this.leading ? Math.floor(this.ttlMs / 3) : this.retryEveryMs;
    this.timer = setTimeout(() => {
      this.tick().finally(() => this.schedule());
    }, every);
    this.timer.unref();
  }

  private tick(): Promise<void> {
    this.ticking ??= (this.leading ? this.renew() : this.tryAcquire()).finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async tryAcquire(): Promise<void> {
    if (Date.now() < this.holdOffUntil) return;
    const startedAt = Date.now();
    let won: number;
    try {
      won = await this.redis.pfLeaseAcquire(this.opts.key, this.token, this.ttlMs);
    } catch (err) {
      this.report(err);
      return;
    }
    if (won !== 1 || this.stopped) return;
    this.leading = true;
    this.armDeadline(startedAt);
    try {
      await this.opts.onAcquired(this.token);
    } catch (err) {
      this.report(err);
      await this.redis.pfLeaseRelease(this.opts.key, this.token).catch(this.report);
      await this.stepDown();
    }
  }

  private async renew(): Promise<void> {
    const startedAt = Date.now();
    try {
      const held = await this.redis.pfLeaseRenew(this.opts.key, this.token, this.ttlMs);
      if (held === 1) this.armDeadline(startedAt);
      else await this.stepDown();
    } catch (err) {
      // Unreachable Redis: keep leading until the deadline, in case the next renewal works.
      this.report(err);
    }
  }

  /**
   * The lease was confirmed by a request sent at `confirmedAt`, so it holds until at least
   * confirmedAt + ttl; step down at 80% of that unless a renewal moves the deadline.
   */
  private armDeadline(confirmedAt: number): void {
    clearTimeout(this.deadline);
    const wait = confirmedAt + Math.floor(this.ttlMs * 0.8) - Date.now();
    this.deadline = setTimeout(() => {
      this.stepDown().catch(this.report);
    }, wait);
    this.deadline.unref();
  }

  private async stepDown(): Promise<void> {
    clearTimeout(this.deadline);
    if (!this.leading) return;
    this.leading = false;
    try {
      await this.opts.onLost();
    } catch (err) {
      this.report(err);
    }
  }

  private readonly report = (err: unknown): void => {
    this.opts.onError?.(err);
  };
}
