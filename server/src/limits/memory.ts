/**
 * The in-process limiter (embedded default). Per key: a sliding one-minute window kept as
 * 60 one-second buckets, and the UTC day's count. Each check-and-count is synchronous once a
 * key's day is loaded, so concurrent requests are admitted exactly. Usage is written to the
 * store at most USAGE_FLUSH_MS after it is counted (and on close), and read back after a
 * restart: a process killed outright (kill -9, a crash) loses only the last moments' counts.
 */
import type { UsageStore } from '../store/types';
import { TurnBatch, type WaitingConsume } from './turnBatch';
import { type LimitDecision, type Limiter, type LimitPolicy, type LimitRequest, utcDay, utcDayStart } from './types';

const WINDOW_S = 60;
const DAY_MS = 86_400_000;

/**
 * The longest a counted request waits before it is written. One small upsert per flush (all
 * keys counted meanwhile) every 25 ms under load costs little; waiting 2 s, as before, lost
 * 1.0–1.3 s of requests to a kill -9 under load.
 */
export const USAGE_FLUSH_MS = 25;
/**
 * Keys held in memory before the idle ones (nothing in their minute, nothing unwritten) are
 * let go: a flood of sign-ups from ever new networks must not grow memory without end. A key
 * let go reads its day's count back from the store on its next request.
 */
export const MAX_HELD_KEYS = 100_000;
/** After a failed write, the next try waits this long (the counts are kept meanwhile). */
const FLUSH_RETRY_MS = 1_000;

/** A request on a loaded key, waiting for the end of its event-loop turn. */
interface QueuedConsume extends WaitingConsume {
  state: KeyState;
}

/** A key on one UTC day. The window's slots carry over from the day before. */
interface KeyState {
  keyId: string;
  /** Requests per second-slot; `slotSecond` says which epoch second a slot holds. */
  slots: number[];
  slotSecond: number[];
  day: string;
  /** Epoch ms of the start of `day`: compared per request instead of formatting a date. */
  dayStart: number;
  dayUsed: number;
  /** Counted but not yet flushed to the store. */
  unflushed: number;
}

export interface MemoryLimiterOptions {
  /** Where usage is persisted; without it usage lives only as long as the process. */
  usage?: UsageStore;
  /** The longest counted usage waits before it is written (default USAGE_FLUSH_MS); 0 writes it only on flush() and close(). */
  flushEveryMs?: number;
  onError?: (err: unknown) => void;
  /** Default MAX_HELD_KEYS; only with a usage store (without one a key let go would forget its count). */
  maxHeldKeys?: number;
}

export class MemoryLimiter implements Limiter {
  private readonly states = new Map<string, KeyState>();
  private readonly loading = new Map<string, Promise<KeyState>>();
  /** Key days with usage not yet flushed, each once. */
  private unflushed: KeyState[] = [];
  private readonly flushEveryMs: number;
  /** The pending write of counted usage, or the write in flight; at most one of each. */
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private closed = false;
  /** Epoch ms before which idle keys are not looked for again (at most once a second). */
  private nextLetGo = 0;
  /**
   * Requests on loaded keys read in this turn of the event loop, decided at its end in the
   * order they arrived, like the Redis limiter's one call per turn. Answering a turn's
   * requests together after reading them all costs the server less CPU per request than
   * answering each as it is read: measured on /me at 50 connections, 28 µs instead of
   * 32–45 µs, and 37,000 req/s instead of 22,000–31,000.
   */
  private readonly queued = new TurnBatch<QueuedConsume>((batch) => {
    for (const q of batch) q.resolve(this.decide(q.state, q.policy, q.nowMs));
  });

  constructor(private readonly opts: MemoryLimiterOptions = {}) {
    this.flushEveryMs = opts.usage ? (opts.flushEveryMs ?? USAGE_FLUSH_MS) : 0;
  }

  /** Writes counted usage `afterMs` from now, unless a write is already pending or running (it schedules the next). */
  private scheduleWrite(afterMs = this.flushEveryMs): void {
    if (this.timer !== undefined || this.writing !== undefined || this.flushEveryMs <= 0 || this.closed) return;
    this.timer = setTimeout(this.write, afterMs);
    this.timer.unref();
  }

  private readonly write = (): void => {
    this.timer = undefined;
    let retryAfter: number | undefined;
    this.writing = this.flush()
      .catch((err) => {
        retryAfter = FLUSH_RETRY_MS;
        this.opts.onError?.(err);
      })
      .finally(() => {
        this.writing = undefined;
        if (this.unflushed.length > 0) this.scheduleWrite(retryAfter);
      });
  };

  consume(keyId: string, policy: LimitPolicy, nowMs = Date.now()): Promise<LimitDecision> {
    const state = this.states.get(keyId);
    if (state && state.dayStart === utcDayStart(nowMs)) {
      return new Promise((resolve) => this.queued.add({ state, policy, nowMs, resolve }));
    }
    return this.stateFor(keyId, nowMs).then((loaded) => this.decide(loaded, policy, nowMs));
  }

  async consumeAll(requests: readonly LimitRequest[], nowMs = Date.now()): Promise<LimitDecision[]> {
    const states = await Promise.all(requests.map((r) => this.stateFor(r.keyId, nowMs)));
    // Checked, then counted, in one synchronous run: no other decision comes in between.
    const checks = requests.map((r, i) => this.decide(states[i] as KeyState, r.policy, nowMs, false));
    if (!checks.every((d) => d.allowed)) return checks;
    return requests.map((r, i) => this.decide(states[i] as KeyState, r.policy, nowMs));
  }

  /** The decision on one request; it is counted when allowed unless `count` is false. */
  private decide(state: KeyState, policy: LimitPolicy, nowMs: number, count = true): LimitDecision {
    const nowS = Math.floor(nowMs / 1000);
    let inWindow = 0;
    let oldest = nowS;
    for (let i = 0; i < WINDOW_S; i++) {
      const second = state.slotSecond[i] ?? -1;
      const count = state.slots[i] ?? 0;
      if (second > nowS - WINDOW_S && count > 0) {
        inWindow += count;
        if (second < oldest) oldest = second;
      }
    }
    const minuteFull = inWindow >= policy.perMinute;
    const dayFull = state.dayUsed >= policy.perDay;
    const allowed = !minuteFull && !dayFull;
    const counted = allowed && count;
    if (counted) {
      const slot = nowS % WINDOW_S;
      if (state.slotSecond[slot] !== nowS) {
        state.slotSecond[slot] = nowS;
        state.slots[slot] = 0;
      }
      state.slots[slot] = (state.slots[slot] ?? 0) + 1;
      state.dayUsed += 1;
      if (state.unflushed === 0) this.unflushed.push(state);
      state.unflushed += 1;
      if (this.timer === undefined) this.scheduleWrite();
    }
    const used = counted ? inWindow + 1 : inWindow;
    // With room left, the window resets as its oldest request leaves; when full, when enough have left.
    const minuteReset = minuteFull
      ? this.minuteFreesAt(state, nowS, policy.perMinute, used)
      : (oldest + WINDOW_S) * 1000;
    const dayReset = state.dayStart + DAY_MS;
    const decision: LimitDecision = {
      allowed,
      minute: { limit: policy.perMinute, remaining: Math.max(0, policy.perMinute - used), resetAt: minuteReset },
      day: {
        limit: policy.perDay,
        remaining: Math.max(0, policy.perDay - state.dayUsed),
        resetAt: dayReset,
        used: state.dayUsed,
      },
    };
    if (!allowed) {
      decision.reason = dayFull ? 'daily_quota_exceeded' : 'rate_limited';
      const until = dayFull ? dayReset : minuteReset;
      decision.retryAfterSeconds = Math.max(1, Math.ceil((until - nowMs) / 1000));
    }
    return decision;
  }

  usedToday(keyId: string, nowMs = Date.now()): Promise<number> {
    const state = this.states.get(keyId);
    if (state && state.dayStart === utcDayStart(nowMs)) return Promise.resolve(state.dayUsed);
    return this.stateFor(keyId, nowMs).then((loaded) => loaded.dayUsed);
  }

  async flush(): Promise<void> {
    if (!this.opts.usage || this.unflushed.length === 0) return;
    const batch = this.unflushed.map((state) => ({ state, count: state.unflushed }));
    this.unflushed = [];
    for (const { state } of batch) state.unflushed = 0;
    try {
      await this.opts.usage.addUsage(batch.map(({ state, count }) => ({ keyId: state.keyId, day: state.day, count })));
    } catch (err) {
      // Keep the counts for the next flush rather than lose them.
      for (const { state, count } of batch) {
        if (state.unflushed === 0) this.unflushed.push(state);
        state.unflushed += count;
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    await this.flush();
  }

  /** Epoch ms when the window next has room (or, with room now, when its oldest request leaves). */
  private minuteFreesAt(state: KeyState, nowS: number, limit: number, used: number): number {
    const live: Array<[number, number]> = [];
    for (let i = 0; i < WINDOW_S; i++) {
      const s = state.slotSecond[i] ?? -1;
      if (s > nowS - WINDOW_S && (state.slots[i] ?? 0) > 0) live.push([s, state.slots[i] ?? 0]);
    }
    if (live.length === 0) return (nowS + WINDOW_S) * 1000;
    live.sort((a, b) => a[0] - b[0]);
    let over = used - limit + 1;
    for (const [second, count] of live) {
      over -= count;
      if (over <= 0) return (second + WINDOW_S) * 1000;
    }
    return ((live[0]?.[0] ?? nowS) + WINDOW_S) * 1000;
  }

  /** How many keys are held in memory. */
  get heldKeys(): number {
    return this.states.size;
  }

  /** Lets go of keys with nothing in their minute window and nothing unwritten. */
  private letGoIdle(nowMs: number): void {
    if (nowMs < this.nextLetGo) return;
    this.nextLetGo = nowMs + 1_000;
    const nowS = Math.floor(nowMs / 1000);
    for (const [keyId, state] of this.states) {
      if (state.unflushed > 0) continue;
      if (state.slotSecond.some((second, i) => second > nowS - WINDOW_S && (state.slots[i] ?? 0) > 0)) continue;
      this.states.delete(keyId);
    }
  }

  /** The key's state for the UTC day of `nowMs`, loading the day's stored usage once. */
  private async stateFor(keyId: string, nowMs: number): Promise<KeyState> {
    const dayStart = utcDayStart(nowMs);
    const state = this.states.get(keyId);
    if (state && state.dayStart === dayStart) return state;
    const day = utcDay(nowMs);
    const loadKey = `${keyId}\n${day}`;
    let loading = this.loading.get(loadKey);
    if (!loading) {
      loading = (async () => {
        const stored = this.opts.usage ? await this.opts.usage.usageOn(keyId, day) : 0;
        // Counts of this day not yet flushed, by an earlier state (a clock that stepped back).
        const waiting = this.unflushed.find((s) => s.keyId === keyId && s.day === day)?.unflushed ?? 0;
        const previous = this.states.get(keyId);
        const next: KeyState = {
          keyId,
          slots: previous?.slots ?? new Array(WINDOW_S).fill(0),
          slotSecond: previous?.slotSecond ?? new Array(WINDOW_S).fill(-1),
          day,
          dayStart,
          dayUsed: stored + waiting,
          unflushed: 0,
        };
        this.states.set(keyId, next);
        if (this.opts.usage && this.states.size > (this.opts.maxHeldKeys ?? MAX_HELD_KEYS)) this.letGoIdle(nowMs);
        return next;
      })().finally(() => this.loading.delete(loadKey));
      this.loading.set(loadKey, loading);
    }
    return loading;
  }
}
