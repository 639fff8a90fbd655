/**
 * Sends what is due: takes due deliveries from the store (held there while under way, so no
 * other claimer takes them), at most `maxInFlight` attempts at once and `perEndpoint` to any
 * one endpoint, and writes the attempts' outcomes back in batches. It sleeps until the next
 * delivery is due on the webhook clock, wakes when new deliveries are stored here, and looks
 * again every second for those stored elsewhere (a retry asked for on another replica).
 */
import { WEBHOOK_TIMEOUT_SECONDS } from '@propsfeed/contract';
import { type AttemptDeps, applyToEndpoint, attemptDelivery } from './attempt';
import type { EndpointCache } from './endpoints';
import type { ClaimedDelivery, DeliveryUpdate, WebhookStore } from './store';

export interface DispatcherOptions extends AttemptDeps {
  store: WebhookStore;
  endpoints: EndpointCache;
  /** Attempts under way at once (default 128). */
  maxInFlight?: number;
  /** Attempts under way to one endpoint at once (default 8). */
  perEndpoint?: number;
  /** Real milliseconds between looks at the store for work stored elsewhere (default 1,000). */
  pollMs?: number;
  /** Whether an endpoint's key is still active: a revoked key's deliveries are failed, not sent. */
  isKeyActive: (keyId: string) => boolean;
  onError: (err: unknown) => void;
}

/** How long a claimed delivery is held: its attempt's time limit and as much again. */
const HOLD_MS = 2 * WEBHOOK_TIMEOUT_SECONDS * 1000;
/** Outcomes are written at least this often (real ms), or once this many are waiting. */
const FLUSH_MS = 50;
const FLUSH_COUNT = 1_000;
/** Event bodies kept in memory at most (a few MB): a busy change's events, each read once. */
const MAX_BODIES = 5_000;

const keyOf = (d: { endpointId: string; eventId: string }) => `${d.endpointId}\u0000${d.eventId}`;

/**
 * A claimed delivery written back without an attempt: given back (pending, due at `nowMs`, its
 * last attempt's record kept), or failed unsent with the reason.
 */
function unsentOf(d: ClaimedDelivery, nowMs: number, failed?: string): DeliveryUpdate {
  return {
    endpointId: d.endpointId,
    eventId: d.eventId,
    status: failed === undefined ? 'pending' : 'failed',
    attempts: d.attempts,
    nextAttemptAt: failed === undefined ? nowMs : null,
    lastAttemptAt: failed === undefined ? null : nowMs,
    responseStatus: null,
    latencyMs: null,
    error: failed ?? null,
  };
}

export class Dispatcher {
  private running = false;
  private readonly maxInFlight: number;
  private readonly perEndpoint: number;
  /** Claimed and not yet written back: never claimed twice by this process. */
  private readonly held = new Set<string>();
  private readonly queues = new Map<string, ClaimedDelivery[]>();
  private readonly active = new Map<string, number>();
  private inFlight = 0;
  private queued = 0;
  private outcomes: DeliveryUpdate[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  /**
   * Claims and the writing back of outcomes, one after the other: a claim's rows are checked
   * against `held` before an outcome written after that claim may take its delivery out of
   * `held` (else a delivery claimed just before its success was written would look unclaimed).
   */
  private storeTurn: Promise<unknown> = Promise.resolve();
  private pumping: Promise<void> | undefined;
  private again = false;
  private cancelDue: (() => void) | undefined;
  private poll: NodeJS.Timeout | undefined;
  private readonly idle = new Set<() => void>();
  /** Event bodies by id, the most recent first out: a change's events go to many endpoints, read once. */
  private readonly bodies = new Map<string, string>();

  constructor(private readonly opts: DispatcherOptions) {
    this.maxInFlight = opts.maxInFlight ?? 128;
    this.perEndpoint = opts.perEndpoint ?? 8;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.poll = setInterval(() => this.kick(), this.opts.pollMs ?? 1_000);
    this.poll.unref();
    this.kick();
  }

  /**
   * Stops taking work, lets the attempts under way finish, gives back what was claimed but not
   * started (due at once, for whoever delivers next) and writes every outcome.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.poll);
    this.cancelDue?.();
    await this.pumping;
    const now = this.opts.clock.now();
    for (const queue of this.queues.values()) {
      for (const d of queue.splice(0)) {
        this.queued--;
        this.outcomes.push(unsentOf(d, now));
      }
    }
    this.queues.clear();
    if (this.inFlight > 0) await new Promise<void>((resolve) => this.idle.add(resolve));
    await this.flush();
  }

  /** Looks for due work now (new deliveries were stored). */
  kick(): void {
    if (!this.running) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch((err) => this.opts.onError(err))
      .finally(() => {
        this.pumping = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async pump(): Promise<void> {
    const room = 4 * this.maxInFlight - this.queued - this.inFlight;
    if (room <= 0) return;
    await this.opts.endpoints.refresh();
    const now = this.opts.clock.now();
    if (this.bodies.size > MAX_BODIES) this.bodies.clear();
    const claimed = await this.serially(async () => {
      const rows = await this.opts.store.claimDue(now, now + HOLD_MS, room, this.bodies);
      for (const d of rows) {
        const key = keyOf(d);
        if (this.held.has(key)) continue;
        this.held.add(key);
        let queue = this.queues.get(d.endpointId);
        if (!queue) {
          queue = [];
          this.queues.set(d.endpointId, queue);
        }
        queue.push(d);
        this.queued++;
      }
      return rows;
    });
    this.startAttempts();
    if (claimed.length >= room) {
      this.again = true;
      return;
    }
    // With work in hand, its completions look again; idle, wake when the next one is due.
    if (this.queued === 0 && this.inFlight === 0) await this.sleepUntilDue();
  }

  /** Arms the wake-up for the earliest pending delivery (on the webhook clock). */
  private async sleepUntilDue(): Promise<void> {
    const due = await this.opts.store.nextDueAt();
    this.cancelDue?.();
    this.cancelDue = undefined;
    if (due === undefined || !this.running) return;
    this.cancelDue = this.opts.clock.after(due - this.opts.clock.now(), () => this.kick());
  }

  private startAttempts(): void {
    for (const [endpointId, queue] of this.queues) {
      let active = this.active.get(endpointId) ?? 0;
      while (queue.length > 0 && active < this.perEndpoint && this.inFlight < this.maxInFlight) {
        const d = queue.shift() as ClaimedDelivery;
        this.queued--;
        active++;
        this.inFlight++;
        this.active.set(endpointId, active);
        void this.attempt(d);
      }
      if (queue.length === 0) this.queues.delete(endpointId);
      if (this.inFlight >= this.maxInFlight) return;
    }
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    try {
      const endpoint = this.opts.endpoints.get(d.endpointId);
      if (endpoint?.status !== 'active') {
        // Deleted, paused or disabled meanwhile: give it back untouched.
        this.release(d);
        return;
      }
      if (!this.opts.isKeyActive(endpoint.keyId)) {
        this.record(
          unsentOf(d, this.opts.clock.now(), 'not sent: the API key that registered the endpoint was revoked'),
        );
        return;
      }
      const { update, effect } = await attemptDelivery(d, endpoint, this.opts);
      this.record(update);
      await applyToEndpoint(this.opts.store, endpoint, effect, update.lastAttemptAt ?? this.opts.clock.now()).catch(
        this.opts.onError,
      );
    } catch (err) {
      this.opts.onError(err);
      this.release(d);
    } finally {
      this.inFlight--;
      const left = (this.active.get(d.endpointId) ?? 1) - 1;
      if (left === 0) this.active.delete(d.endpointId);
      else this.active.set(d.endpointId, left);
      if (this.inFlight === 0) {
        for (const resolve of this.idle) resolve();
        this.idle.clear();
      }
      if (this.running) {
        this.startAttempts();
        if (this.queued < this.maxInFlight) this.kick();
      }
    }
  }

  /** Written back unattempted: pending and due now, its last attempt's record kept. */
  private release(d: ClaimedDelivery): void {
    this.record(unsentOf(d, this.opts.clock.now()));
  }

  private record(update: DeliveryUpdate): void {
    this.outcomes.push(update);
    if (this.outcomes.length >= FLUSH_COUNT) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  private flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.outcomes.splice(0);
    return this.serially(async () => {
      if (batch.length === 0) return;
      try {
        await this.opts.store.recordAttempts(batch);
      } catch (err) {
        this.opts.onError(err);
      }
      // Only now may these be claimed again (their hold may have run out while they waited).
      for (const u of batch) this.held.delete(keyOf(u));
      if (batch.some((u) => u.status === 'pending')) this.kick();
    });
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const run = this.storeTurn.then(step);
    this.storeTurn = run.catch(() => undefined);
    return run;
  }
}
