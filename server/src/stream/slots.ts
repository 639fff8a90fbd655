/**
 * Open streams per key, capped per tier (TierPolicy.maxStreams): a slot is reserved before
 * the request is counted and released when the stream ends, whatever ends it. In this
 * process on the embedded engine; in Redis on the shared engines, so the cap holds across
 * replicas (each slot a lease the replica renews, so a replica that dies frees its slots).
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ApiError } from '../errors/apiError';

export interface StreamSlots {
  /** Takes a slot for the key; its release function, or undefined when the key holds `max` already. */
  reserve(keyId: string, max: number): Promise<(() => void) | undefined>;
  close(): Promise<void>;
}

export class MemoryStreamSlots implements StreamSlots {
  private readonly open = new Map<string, number>();

  async reserve(keyId: string, max: number) {
    const held = this.open.get(keyId) ?? 0;
    if (held >= max) return undefined;
    this.open.set(keyId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.open.get(keyId) ?? 1) - 1;
      if (now > 0) this.open.set(keyId, now);
      else this.open.delete(keyId);
    };
  }

  async close() {}
}

// KEYS: the key's slot set. ARGV: slot id, max, lease (ms). Leases past their time are dropped first.
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
`;

// KEYS: slot sets; ARGV: lease (ms), then one slot id per key. Renews the leases still held.
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + tonumber(ARGV[1]), ARGV[i + 1])
  redis.call('PEXPIRE', key, tonumber(ARGV[1]))
end
return 1
`;

interface SlotRedis extends Redis {
  pfStreamReserve(key: string, id: string, max: number, leaseMs: number): Promise<number>;
  pfStreamRenew(...args: (string | number)[]): Promise<number>;
}

export class RedisStreamSlots implements StreamSlots {
  private readonly redis: SlotRedis;
  /** Slots this replica holds: Redis key → slot ids. */
  private readonly held = new Map<string, Set<string>>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly leaseMs = 30_000,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    if (!('pfStreamReserve' in redis)) {
      redis.defineCommand('pfStreamReserve', { numberOfKeys: 1, lua: RESERVE });
      redis.defineCommand('pfStreamRenew', { lua: RENEW });
    }
    this.redis = redis as SlotRedis;
    this.timer = setInterval(
      () => {
        this.renew().catch(this.onError);
      },
      Math.floor(leaseMs / 3),
    );
    this.timer.unref();
  }

  async reserve(keyId: string, max: number) {
    const key = `${this.prefix}stream:open:${keyId}`;
    const id = randomBytes(9).toString('base64url');
    const won = await this.redis.pfStreamReserve(key, id, max, this.leaseMs).catch((err: unknown) => {
      this.onError(err);
      throw new ApiError('upstream_unavailable', 'open streams cannot be counted right now (Redis); retry shortly');
    });
    if (won !== 1) return undefined;
    let ids = this.held.get(key);
    if (!ids) {
      ids = new Set();
      this.held.set(key, ids);
    }
    ids.add(id);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const mine = this.held.get(key);
      mine?.delete(id);
      if (mine?.size === 0) this.held.delete(key);
      this.redis.zrem(key, id).catch(this.onError);
    };
  }

  private async renew(): Promise<void> {
    const keys: string[] = [];
    const ids: string[] = [];
    for (const [key, set] of this.held) {
      for (const id of set) {
        keys.push(key);
        ids.push(id);
      }
    }
    // In batches, so 10,000 streams are a few round trips.
    for (let i = 0; i < keys.length; i += 500) {
      const k = keys.slice(i, i + 500);
      await this.redis.pfStreamRenew(k.length, ...k, this.leaseMs, ...ids.slice(i, i + 500));
    }
  }

  async close() {
    clearInterval(this.timer);
  }
}
