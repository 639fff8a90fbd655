/**
 * The Redis limiter (shared engines): exact across replicas, because every check-and-count
 * is one Lua script. Per key: a sliding one-minute window as one-second buckets in a hash
 * (the same arithmetic as the in-process limiter, memory bounded whatever the key's rate),
 * and the UTC day's count.
 *
 * Usage is durable in the store. Each day counter carries `f`, the part of it already
 * written there. A flush claims `n - f` atomically (so two replicas never write the same
 * requests), adds it to the store, and gives the claim back if that write fails: counts are
 * held until the store takes them. After Redis loses its data the day counters are seeded
 * from the store, so nothing is counted twice; at most the last unflushed seconds are lost.
 */
import type { Redis } from 'ioredis';
import { untilFirstReady } from '../store/redis';
import type { UsageDelta, UsageStore } from '../store/types';
import { TurnBatch, type WaitingConsume } from './turnBatch';
import {
  type LimitDecision,
  type Limiter,
  LimiterUnavailableError,
  type LimitPolicy,
  type LimitRequest,
  utcDay,
  utcDayStart,
} from './types';

const DAY_MS = 86_400_000;
/** Day counters outlive their day by this much, so a late flush still finds them. */
const DAY_KEEP_MS = 2 * DAY_MS;

// The check-and-counts of one call, grouped by key (one round trip for all the requests a
// replica received in one turn of its event loop; a key's requests in order).
// KEYS: dirty set, then per group its window hash and day hash.
// ARGV: per group perMinute, perDay, dirty member, n, then its n requests' now (s).
// Returns 5 numbers per request, groups in order: {-1, 0, 0, 0, 0} when the day counter must
// be seeded, else {allowed, dayFull, used, dayUsed, resetS}.
// The window hash holds one field per second with requests, plus 't' (their total) and 'o'
// (the oldest second with requests). A group reads 't', 'o' and the day count once, decides
// its requests from them and writes once: Redis calls per key and call, not per request. It
// reads buckets one by one only when seconds leave the window or the window is full.
const CONSUME = `
local out = {}
local function push(a, b, c, d, e)
  local n = #out
  out[n + 1] = a; out[n + 2] = b; out[n + 3] = c; out[n + 4] = d; out[n + 5] = e
end
local function group(w, dayKey, dirty, perMinute, perDay, member, nows)
  local dayUsed = redis.call('HGET', dayKey, 'n')
  if not dayUsed then
    for _ = 1, #nows do push(-1, 0, 0, 0, 0) end
    return
  end
  dayUsed = tonumber(dayUsed)
  local head = redis.call('HMGET', w, 't', 'o')
  local total = tonumber(head[1]) or 0
  -- The oldest second with requests; nil while the window is empty (0 if unknown: recount).
  local oldest = nil
  if total > 0 then oldest = tonumber(head[2]) or 0 end
  local adds, added, dayAdded, changed = {}, {}, 0, false
  -- Writes this call's counts, so bucket reads below see them.
  local function writeAdds()
    for _, s in ipairs(added) do redis.call('HINCRBY', w, s, adds[s]) end
    adds, added = {}, {}
  end
  local function bucket(s) return tonumber(redis.call('HGET', w, s) or '0') end
  for _, nowS in ipairs(nows) do
    local lo = nowS - 59
    if oldest and oldest < lo then
      -- Seconds left the window: drop their buckets, then find the oldest one left.
      writeAdds()
      changed = true
      if lo - oldest > 120 then
        -- Far behind (a clock jump): recount from the buckets themselves.
        total = 0
        local flat = redis.call('HGETALL', w)
        for i = 1, #flat, 2 do
          local s = tonumber(flat[i])
          if s then
            if s < lo then redis.call('HDEL', w, flat[i]) else total = total + tonumber(flat[i + 1]) end
          end
        end
      else
        for s = oldest, lo - 1 do
          local c = redis.call('HGET', w, s)
          if c then
            total = total - tonumber(c)
            redis.call('HDEL', w, s)
          end
        end
      end
      oldest = nil
      if total > 0 then
        -- A replica whose clock runs ahead may have counted up to a minute later than now.
        for s = lo, nowS + 60 do
          if redis.call('HEXISTS', w, s) == 1 then
            oldest = s
            break
          end
        end
        if not oldest then total = 0 end
      end
    end
    local dayFull = dayUsed >= perDay
    local allowed = (total < perMinute) and not dayFull
    if allowed then
      if not adds[nowS] then
        adds[nowS] = 0
        added[#added + 1] = nowS
      end
      adds[nowS] = adds[nowS] + 1
      dayAdded = dayAdded + 1
      dayUsed = dayUsed + 1
      total = total + 1
      changed = true
      -- A replica whose clock runs behind may count a second older than the oldest.
      if not oldest or nowS < oldest then oldest = nowS end
    end
    -- The window frees room when its oldest request leaves, or, when full, once enough have left.
    local resetS = nowS + 60
    local need = total - perMinute + 1
    if oldest and need <= 0 then
      resetS = oldest + 60
    elseif oldest then
      writeAdds()
      local seen = 0
      for s = oldest, nowS + 60 do
        seen = seen + bucket(s)
        if seen >= need then
          resetS = s + 60
          break
        end
      end
    end
    push(allowed and 1 or 0, dayFull and 1 or 0, total, dayUsed, resetS)
  end
  writeAdds()
  if dayAdded > 0 then
    redis.call('HINCRBY', dayKey, 'n', dayAdded)
    redis.call('SADD', dirty, member)
  end
  if changed then
    if total == 0 then
      redis.call('DEL', w)
    else
      redis.call('HSET', w, 't', total, 'o', oldest)
      redis.call('EXPIRE', w, 61)
    end
  end
end
local a, k = 1, 2
while a <= #ARGV do
  local n = tonumber(ARGV[a + 3])
  local nows = {}
  for j = 1, n do nows[j] = tonumber(ARGV[a + 3 + j]) end
  group(KEYS[k], KEYS[k + 1], KEYS[1], tonumber(ARGV[a]), tonumber(ARGV[a + 1]), ARGV[a + 2], nows)
  a = a + 4 + n
  k = k + 2
end
return out
`;

// One request against several keys, counted on all of them only when every one has room.
// KEYS: dirty set, then per key its window hash and day hash. ARGV: now (s), then per key
// perMinute, perDay, dirty member. Returns 5 numbers per key, in the same form as CONSUME
// (allowed meaning that key's own windows had room), or -1s when a day counter must be seeded.
// The window is read bucket by bucket (few requests per key: sign-ups), its stale seconds are
// dropped, and 't' and 'o' are kept as CONSUME keeps them.
const CONSUME_ALL = `
local nowS = tonumber(ARGV[1])
local n = (#KEYS - 1) / 2
local items, all = {}, true
for i = 1, n do
  local w, dayKey = KEYS[2 * i], KEYS[2 * i + 1]
  local dayUsed = redis.call('HGET', dayKey, 'n')
  if not dayUsed then
    local out = {}
    for j = 1, 5 * n do out[j] = -1 end
    return out
  end
  local flat = redis.call('HGETALL', w)
  local secs, total = {}, 0
  for f = 1, #flat, 2 do
    local s = tonumber(flat[f])
    if s and s > nowS - 60 then
      secs[#secs + 1] = { s, tonumber(flat[f + 1]) }
      total = total + tonumber(flat[f + 1])
    elseif s then
      redis.call('HDEL', w, flat[f])
    end
  end
  local perMinute, perDay = tonumber(ARGV[3 * i - 1]), tonumber(ARGV[3 * i])
  local it = { w = w, dayKey = dayKey, member = ARGV[3 * i + 1], secs = secs, total = total,
    dayUsed = tonumber(dayUsed), perMinute = perMinute, perDay = perDay }
  it.allowed = total < perMinute and it.dayUsed < perDay
  if not it.allowed then all = false end
  items[i] = it
end
local out = {}
for _, it in ipairs(items) do
  if all then
    redis.call('HINCRBY', it.w, nowS, 1)
    redis.call('HINCRBY', it.dayKey, 'n', 1)
    redis.call('SADD', KEYS[1], it.member)
    it.total = it.total + 1
    it.dayUsed = it.dayUsed + 1
    it.secs[#it.secs + 1] = { nowS, 1 }
  end
  table.sort(it.secs, function(a, b) return a[1] < b[1] end)
  local oldest = it.secs[1] and it.secs[1][1]
  if all then
    redis.call('HSET', it.w, 't', it.total, 'o', oldest)
    redis.call('EXPIRE', it.w, 61)
  end
  local resetS = nowS + 60
  local need = it.total - it.perMinute + 1
  if oldest and need <= 0 then
    resetS = oldest + 60
  elseif oldest then
    local seen = 0
    for _, sc in ipairs(it.secs) do
      seen = seen + sc[2]
      if seen >= need then
        resetS = sc[1] + 60
        break
      end
    end
  end
  local m = #out
  out[m + 1] = it.allowed and 1 or 0
  out[m + 2] = it.dayUsed >= it.perDay and 1 or 0
  out[m + 3] = it.total
  out[m + 4] = it.dayUsed
  out[m + 5] = resetS
end
return out
`;

// KEYS: day hash, provisional set. ARGV: stored count, time to live (ms), provisional member or ''.
const SEED = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'n', ARGV[1], 'f', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[1], 'p', 1)
  redis.call('SADD', KEYS[2], ARGV[3])
end
return 1
`;

// KEYS: dirty set, then one day hash per ARGV member. Claims each counter's unwritten part.
const CLAIM = `
local out = {}
for i, member in ipairs(ARGV) do
  local h = KEYS[i + 1]
  local n = redis.call('HGET', h, 'n')
  redis.call('SREM', KEYS[1], member)
  local delta = 0
  if n and not redis.call('HGET', h, 'p') then
    delta = tonumber(n) - tonumber(redis.call('HGET', h, 'f') or '0')
    if delta > 0 then redis.call('HINCRBY', h, 'f', delta) end
  elseif n then
    redis.call('SADD', KEYS[1], member)
  end
  out[i] = delta
end
return out
`;

// KEYS: dirty set, day hash. ARGV: member, delta. Gives back a claim the store refused.
const UNCLAIM = `
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('HINCRBY', KEYS[2], 'f', -tonumber(ARGV[2]))
  redis.call('SADD', KEYS[1], ARGV[1])
end
return 1
`;

// KEYS: provisional set, day hash. ARGV: member, stored count. A counter seeded while the
// store was down learns what the store held, once.
const RECONCILE = `
redis.call('SREM', KEYS[1], ARGV[1])
if redis.call('HGET', KEYS[2], 'p') then
  redis.call('HINCRBY', KEYS[2], 'n', ARGV[2])
  redis.call('HINCRBY', KEYS[2], 'f', ARGV[2])
  redis.call('HDEL', KEYS[2], 'p')
end
return 1
`;

export interface RedisLimiterOptions {
  redis: Redis;
  /** Durable usage (PostgreSQL); counters are seeded from it and flushed to it. */
  usage: UsageStore;
  /** Prefix of every Redis key, so deployments (and test runs) can share one Redis. */
  prefix?: string;
  /** Flush period; 0 turns periodic flushing off. */
  flushEveryMs?: number;
  onError?: (err: unknown) => void;
  /** Close the Redis connection when the limiter closes (it was opened for the limiter). */
  ownsConnection?: boolean;
}

interface ScriptingRedis extends Redis {
  pfConsume(...args: (string | number)[]): Promise<number[]>;
  pfConsumeAll(...args: (string | number)[]): Promise<number[]>;
  pfSeed(...args: (string | number)[]): Promise<number>;
  pfClaim(...args: (string | number)[]): Promise<number[]>;
  pfUnclaim(...args: (string | number)[]): Promise<number>;
  pfReconcile(...args: (string | number)[]): Promise<number>;
}

const SCRIPTS = {
  pfConsume: CONSUME,
  pfConsumeAll: CONSUME_ALL,
  pfSeed: SEED,
  pfClaim: CLAIM,
  pfUnclaim: UNCLAIM,
  pfReconcile: RECONCILE,
};

/** Requests per script call at most: bounds how long one call holds Redis. */
const MAX_BATCH = 256;
const REPLY_WIDTH = 5;

/** A request waiting for its turn's script call; a failed call rejects it. */
interface PendingConsume extends WaitingConsume {
  keyId: string;
  reject: (err: unknown) => void;
}

/** Members of the dirty and provisional sets: `YYYY-MM-DD:keyId` (the day has a fixed width). */
const member = (day: string, keyId: string) => `${day}:${keyId}`;
const parseMember = (m: string) => ({ day: m.slice(0, 10), keyId: m.slice(11) });

export class RedisLimiter implements Limiter {
  private readonly redis: ScriptingRedis;
  private readonly prefix: string;
  private readonly timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private readonly connected: () => Promise<void>;
  /** The highest day count a consume returned per key, for `countedToday` (today's only). */
  private counted = new Map<string, number>();
  private countedDay = '';
  /** Consumes asked for in this turn of the event loop, sent together at its end. */
  private readonly pending = new TurnBatch<PendingConsume>((batch) => this.sendBatch(batch), MAX_BATCH);

  constructor(private readonly opts: RedisLimiterOptions) {
    this.prefix = opts.prefix ?? 'pf:';
    for (const [name, lua] of Object.entries(SCRIPTS)) {
      if (!(name in opts.redis)) opts.redis.defineCommand(name, { lua });
    }
    this.redis = opts.redis as ScriptingRedis;
    this.connected = untilFirstReady(opts.redis);
    const every = opts.flushEveryMs ?? 2_000;
    if (every > 0) {
      this.timer = setInterval(() => {
        this.flush().catch(opts.onError ?? (() => {}));
      }, every);
      this.timer.unref();
    }
  }

  consume(keyId: string, policy: LimitPolicy, nowMs = Date.now()): Promise<LimitDecision> {
    return new Promise((resolve, reject) => this.pending.add({ keyId, policy, nowMs, resolve, reject }));
  }

  private sendBatch(batch: PendingConsume[]): void {
    this.consumeBatch(batch).then(
      (decisions) => {
        for (const [i, c] of batch.entries()) c.resolve(decisions[i] as LimitDecision);
      },
      (err) => {
        for (const c of batch) c.reject(err);
      },
    );
  }

  private async consumeBatch(batch: PendingConsume[]): Promise<LimitDecision[]> {
    const replies = await this.runConsume(batch);
    // A key's first request of its day (or after Redis lost its data): seed the day counter
    // from the store, then ask again for those requests.
    const unseeded = batch.flatMap((c, i) => (replies[i]?.[0] === -1 ? [{ c, i }] : []));
    if (unseeded.length > 0) {
      const seeds = new Map(unseeded.map(({ c }) => [this.dayKey(utcDay(c.nowMs), c.keyId), c]));
      await Promise.all([...seeds.values()].map((c) => this.seed(c.keyId, utcDay(c.nowMs), c.nowMs)));
      const again = await this.runConsume(unseeded.map(({ c }) => c));
      for (const [j, { i }] of unseeded.entries()) replies[i] = again[j] ?? [];
    }
    return batch.map((c, i) => this.decision(c, replies[i] ?? []));
  }

  /** One script call for the batch: each request's reply, in the batch's order. */
  private async runConsume(batch: readonly PendingConsume[]): Promise<number[][]> {
    // Grouped by key (and day and limits), each group's requests in order.
    const groups = new Map<string, { keyId: string; day: string; policy: LimitPolicy; at: number[] }>();
    for (const [i, { keyId, policy, nowMs }] of batch.entries()) {
      const day = utcDay(nowMs);
      const id = `${keyId}\n${day}\n${policy.perMinute}\n${policy.perDay}`;
      let g = groups.get(id);
      if (!g) {
        g = { keyId, day, policy, at: [] };
        groups.set(id, g);
      }
      g.at.push(i);
    }
    const keys: string[] = [this.dirtyKey];
    const args: (string | number)[] = [];
    for (const { keyId, day, policy, at } of groups.values()) {
      keys.push(this.windowKey(keyId), this.dayKey(day, keyId));
      args.push(policy.perMinute, policy.perDay, member(day, keyId), at.length);
      for (const i of at) args.push(Math.floor((batch[i] as PendingConsume).nowMs / 1000));
    }
    const flat = await this.call(() => this.redis.pfConsume(keys.length, ...keys, ...args));
    const replies: number[][] = new Array(batch.length);
    let r = 0;
    for (const { at } of groups.values()) {
      for (const i of at) {
        replies[i] = flat.slice(r, r + REPLY_WIDTH);
        r += REPLY_WIDTH;
      }
    }
    return replies;
  }

  async consumeAll(requests: readonly LimitRequest[], nowMs = Date.now()): Promise<LimitDecision[]> {
    const day = utcDay(nowMs);
    const keys = [this.dirtyKey, ...requests.flatMap((r) => [this.windowKey(r.keyId), this.dayKey(day, r.keyId)])];
    const args = requests.flatMap((r) => [r.policy.perMinute, r.policy.perDay, member(day, r.keyId)]);
    const run = () => this.call(() => this.redis.pfConsumeAll(keys.length, ...keys, Math.floor(nowMs / 1000), ...args));
    let flat = await run();
    if (flat[0] === -1) {
      await Promise.all(requests.map((r) => this.seed(r.keyId, day, nowMs)));
      flat = await run();
    }
    return requests.map((r, i) => this.decision({ ...r, nowMs }, flat.slice(i * REPLY_WIDTH, (i + 1) * REPLY_WIDTH)));
  }

  private decision(
    { keyId, policy, nowMs }: Pick<PendingConsume, 'keyId' | 'policy' | 'nowMs'>,
    reply: number[],
  ): LimitDecision {
    const nowS = Math.floor(nowMs / 1000);
    const [allowedFlag, dayFullFlag, used = 0, dayUsed = 0, resetS = nowS + 60] = reply;
    this.remember(keyId, utcDay(nowMs), dayUsed);
    const allowed = allowedFlag === 1;
    const minuteReset = resetS * 1000;
    const dayReset = utcDayStart(nowMs) + DAY_MS;
    const decision: LimitDecision = {
      allowed,
      minute: { limit: policy.perMinute, remaining: Math.max(0, policy.perMinute - used), resetAt: minuteReset },
      day: { limit: policy.perDay, remaining: Math.max(0, policy.perDay - dayUsed), resetAt: dayReset, used: dayUsed },
    };
    if (!allowed) {
      const dayFull = dayFullFlag === 1;
      decision.reason = dayFull ? 'daily_quota_exceeded' : 'rate_limited';
      decision.retryAfterSeconds = Math.max(1, Math.ceil(((dayFull ? dayReset : minuteReset) - nowMs) / 1000));
    }
    return decision;
  }

  async usedToday(keyId: string, nowMs = Date.now()): Promise<number> {
    const day = utcDay(nowMs);
    const n = await this.call(() => this.redis.hget(this.dayKey(day, keyId), 'n'));
    return n === null ? this.opts.usage.usageOn(keyId, day) : Number(n);
  }

  countedToday(keyId: string, nowMs = Date.now()): number | undefined {
    return utcDay(nowMs) === this.countedDay ? this.counted.get(keyId) : undefined;
  }

  /** Keeps the highest count seen: replies of concurrent requests may arrive out of order. */
  private remember(keyId: string, day: string, dayUsed: number): void {
    if (day !== this.countedDay) {
      if (day < this.countedDay) return;
      this.counted = new Map();
      this.countedDay = day;
    }
    if (dayUsed > (this.counted.get(keyId) ?? -1)) this.counted.set(keyId, dayUsed);
  }

  /** Writes every replica's unwritten counts to the store; concurrent calls share one run. */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.flush();
    } finally {
      if (this.opts.ownsConnection) this.redis.disconnect();
    }
  }

  private async flushOnce(): Promise<void> {
    await this.reconcileProvisional();
    const members = await this.call(() => this.redis.smembers(this.dirtyKey));
    if (members.length === 0) return;
    const dayKeys = members.map((m) => {
      const { day, keyId } = parseMember(m);
      return this.dayKey(day, keyId);
    });
    const claimed = await this.call(() =>
      this.redis.pfClaim(1 + members.length, this.dirtyKey, ...dayKeys, ...members),
    );
    const deltas: (UsageDelta & { member: string; dayKey: string })[] = [];
    members.forEach((m, i) => {
      const count = claimed[i] ?? 0;
      if (count > 0) deltas.push({ ...parseMember(m), count, member: m, dayKey: dayKeys[i] ?? '' });
    });
    if (deltas.length === 0) return;
    try {
      await this.opts.usage.addUsage(deltas.map(({ keyId, day, count }) => ({ keyId, day, count })));
    } catch (err) {
      // The store is down: hand the counts back so a later flush writes them.
      await Promise.allSettled(deltas.map((d) => this.redis.pfUnclaim(2, this.dirtyKey, d.dayKey, d.member, d.count)));
      throw err;
    }
  }

  /** Counters seeded while the store was unreachable get the store's count once it answers. */
  private async reconcileProvisional(): Promise<void> {
    const members = await this.call(() => this.redis.smembers(this.provisionalKey));
    for (const m of members) {
      const { day, keyId } = parseMember(m);
      const stored = await this.opts.usage.usageOn(keyId, day);
      await this.call(() => this.redis.pfReconcile(2, this.provisionalKey, this.dayKey(day, keyId), m, stored));
    }
  }

  /**
   * Loads the day's count from the store into Redis (first request of a key's day, or after
   * Redis lost its data). With the store down the counter starts provisional at zero, so
   * requests keep flowing, and learns the stored count when the store is back.
   */
  private async seed(keyId: string, day: string, nowMs: number): Promise<void> {
    // A time to live from the limiter's own clock, not an instant on Redis's: a counter for
    // a day Redis's clock has passed (a replica's clock behind, a test's fixed day) still lives.
    const ttlMs = utcDayStart(nowMs) + DAY_MS + DAY_KEEP_MS - nowMs;
    let stored = 0;
    let provisional = '';
    try {
      stored = await this.opts.usage.usageOn(keyId, day);
    } catch (err) {
      this.opts.onError?.(err);
      provisional = member(day, keyId);
    }
    await this.call(() =>
      this.redis.pfSeed(2, this.dayKey(day, keyId), this.provisionalKey, stored, ttlMs, provisional),
    );
  }

  /** Runs a Redis call, turning a connection failure into LimiterUnavailableError. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    await this.connected();
    try {
      return await fn();
    } catch (err) {
      if (err instanceof Error && isConnectionError(err)) {
        throw new LimiterUnavailableError(`rate limiter unavailable: ${err.message}`, { cause: err });
      }
      throw err;
    }
  }

  private windowKey(keyId: string) {
    return `${this.prefix}rl:m:${keyId}`;
  }
  private dayKey(day: string, keyId: string) {
    return `${this.prefix}rl:d:${day}:${keyId}`;
  }
  private get dirtyKey() {
    return `${this.prefix}rl:dirty`;
  }
  private get provisionalKey() {
    return `${this.prefix}rl:provisional`;
  }
}

/** Redis replied with an error (a script bug) vs could not be reached: only the latter is 503. */
function isConnectionError(err: Error): boolean {
  return err.name !== 'ReplyError';
}
