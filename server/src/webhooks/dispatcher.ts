/**
 * Sends what is due, fairly: no endpoint's backlog or silence delays another's.
 * - Each endpoint has a window of attempts under way: 1 to begin with, one more after each
 *   success up to `perEndpoint`, back to 1 after a failure (a failing endpoint backs off).
 * - A claim takes from each endpoint at most 4 windows less what it already holds,
 *   the endpoints taking turns (the store's fair claim), so a backlog cannot fill it.
 * - Attempts start round-robin over the endpoints with work in hand, each within its window;
 *   endpoints whose last attempt did not succeed (failing, or not yet heard from) share at
 *   most half of `maxInFlight`, so silent receivers cannot hold every slot for their 15 s.
 * - An endpoint paused by the service after a run of failures (attempt.ts) is probed when its
 *   `probeAt` comes: its oldest pending delivery, one attempt; a success resumes it.
 * Claimed deliveries are held in the store while under way, so no other claimer takes them,
 * and outcomes are written back in batches. It sleeps until the next delivery or probe is due
 * on the webhook clock, wakes when new deliveries are stored here, and looks again every
 * second for those stored elsewhere (a retry asked for on another replica).
 */
import { WEBHOOK_TIMEOUT_SECONDS } from '@propsfeed/contract';
import { serially } from '../util/serially';
import { type AttemptDeps, applyToEndpoint, attemptDelivery, pausedByService } from './attempt';
import type { EndpointCache } from './endpoints';
import type { ClaimedDelivery, DeliveryUpdate, WebhookStore } from './store';

export interface DispatcherOptions extends AttemptDeps {
  store: WebhookStore;
  endpoints: EndpointCache;
  /** Attempts under way at once (default 128). */
  maxInFlight?: number;
  /** Attempts under way to one endpoint at once, at most (its window's ceiling; default 8). */
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
/** Real ms an ended attempt's look for more work waits, for others ending meanwhile to share it. */
const PUMP_GAP_MS = 20;
/** What one endpoint may hold claimed (queued and under way), in windows. */
const BATCH_WINDOWS = 4;
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
  /** Each endpoint's window (attempts it may have under way); absent: 1. */
  private readonly windows = new Map<string, number>();
  /** Endpoints whose last finished attempt succeeded. */
  private readonly proven = new Set<string>();
  /** Paused endpoints with a probe under way. */
  private readonly probing = new Set<string>();
  private inFlight = 0;
  /** Attempts under way to endpoints not proven (failing or not yet heard from). */
  private unprovenInFlight = 0;
  private queued = 0;
  private outcomes: DeliveryUpdate[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  /**
   * Claims and the writing back of outcomes, one after the other: a claim's rows are checked
   * against `held` before an outcome written after that claim may take its delivery out of
   * `held` (else a delivery claimed just before its success was written would look unclaimed).
   */
  private readonly inStoreTurn = serially();
  private pumping: Promise<void> | undefined;
  private again = false;
  private cancelDue: (() => void) | undefined;
  private poll: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
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
    clearTimeout(this.soon);
    this.soon = undefined;
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

  /**
   * Looks for due work within PUMP_GAP_MS (an attempt ended): a claim costs about the same for
   * one row as for hundreds, so the completions of a few milliseconds share one.
   */
  private kickSoon(): void {
    if (this.soon !== undefined || !this.running) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.kick();
    }, PUMP_GAP_MS);
    this.soon.unref();
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
    await this.opts.endpoints.refresh();
    const now = this.opts.clock.now();
    this.startProbes(now);
    const room = 4 * this.maxInFlight - this.queued - this.inFlight;
    if (room <= 0) return;
    if (this.bodies.size > MAX_BODIES) this.bodies.clear();
    const claimed = await this.inStoreTurn(async () => {
      const rows = await this.opts.store.claimDue(now, now + HOLD_MS, room, this.bodies, {
        perEndpoint: BATCH_WINDOWS,
        rooms: this.rooms(),
      });
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

  private windowOf(endpointId: string): number {
    return this.windows.get(endpointId) ?? 1;
  }

  /** What each active endpoint may add to what it holds: BATCH_WINDOWS windows, less what it holds. */
  private rooms(): Map<string, number> {
    const rooms = new Map<string, number>();
    for (const endpoint of this.opts.endpoints.all()) {
      if (endpoint.status !== 'active') continue;
      const id = endpoint.id;
      const held = (this.active.get(id) ?? 0) + (this.queues.get(id)?.length ?? 0);
      rooms.set(id, Math.max(0, BATCH_WINDOWS * this.windowOf(id) - held));
    }
    return rooms;
  }

  /** Probes each endpoint the service paused whose probe is due: its oldest pending delivery, one attempt. */
  private startProbes(now: number): void {
    for (const endpoint of this.opts.endpoints.all()) {
      if (!pausedByService(endpoint) || endpoint.probeAt === null || endpoint.probeAt > now) continue;
      if (this.probing.has(endpoint.id) || (this.active.get(endpoint.id) ?? 0) > 0) continue;
      this.probing.add(endpoint.id);
      void this.inStoreTurn(() => this.opts.store.claimOldest(endpoint.id, now + HOLD_MS))
        .then(async (d) => {
          if (d === undefined) {
            // Nothing waits for it (not even its own webhook.paused): nothing to lose by resuming.
            this.probing.delete(endpoint.id);
            await applyToEndpoint(this.opts.store, endpoint, 'succeeded', now);
            this.kick();
          } else if (this.held.has(keyOf(d)) || !this.running) {
            this.probing.delete(endpoint.id);
          } else {
            this.held.add(keyOf(d));
            this.launch(d, true);
          }
        })
        .catch((err) => {
          this.probing.delete(endpoint.id);
          this.opts.onError(err);
        });
    }
  }

  /** Arms the wake-up for the earliest pending delivery or probe (on the webhook clock). */
  private async sleepUntilDue(): Promise<void> {
    let due = await this.opts.store.nextDueAt();
    for (const endpoint of this.opts.endpoints.all()) {
      if (pausedByService(endpoint) && endpoint.probeAt !== null && !this.probing.has(endpoint.id)) {
        due = Math.min(due ?? endpoint.probeAt, endpoint.probeAt);
      }
    }
    this.cancelDue?.();
    this.cancelDue = undefined;
    if (due === undefined || !this.running) return;
    this.cancelDue = this.opts.clock.after(due - this.opts.clock.now(), () => this.kick());
  }

  /**
   * Starts attempts round-robin: one per endpoint with work in hand and room in its window, turn
   * after turn, while slots last; an endpoint that started one goes to the back of the line. A
   * claimed delivery of an endpoint no longer active is given back.
   */
  private startAttempts(): void {
    const unprovenSlots = Math.max(1, Math.floor(this.maxInFlight / 2));
    let started = true;
    while (started && this.inFlight < this.maxInFlight && this.queued > 0) {
      started = false;
      for (const endpointId of [...this.queues.keys()]) {
        if (this.inFlight >= this.maxInFlight) return;
        const queue = this.queues.get(endpointId) as ClaimedDelivery[];
        if (this.opts.endpoints.get(endpointId)?.status !== 'active') {
          // Deleted, paused or disabled meanwhile: give it back untouched.
          this.queues.delete(endpointId);
          this.queued -= queue.length;
          for (const d of queue) this.release(d);
          continue;
        }
        if ((this.active.get(endpointId) ?? 0) >= this.windowOf(endpointId)) continue;
        if (!this.proven.has(endpointId) && this.unprovenInFlight >= unprovenSlots) continue;
        const d = queue.shift() as ClaimedDelivery;
        this.queued--;
        this.queues.delete(endpointId);
        if (queue.length > 0) this.queues.set(endpointId, queue);
        this.launch(d, false);
        started = true;
      }
    }
  }

  private launch(d: ClaimedDelivery, probe: boolean): void {
    const unproven = !this.proven.has(d.endpointId);
    this.inFlight++;
    if (unproven) this.unprovenInFlight++;
    this.active.set(d.endpointId, (this.active.get(d.endpointId) ?? 0) + 1);
    void this.attempt(d, probe).finally(() => {
      this.inFlight--;
      if (unproven) this.unprovenInFlight--;
      if (probe) this.probing.delete(d.endpointId);
      const left = (this.active.get(d.endpointId) ?? 1) - 1;
      if (left === 0) this.active.delete(d.endpointId);
      else this.active.set(d.endpointId, left);
      if (this.inFlight === 0) {
        for (const resolve of this.idle) resolve();
        this.idle.clear();
      }
      if (this.running) {
        this.startAttempts();
        // Claims are costly per call, not per row: look again once this endpoint's queue runs
        // below its window (or nothing is queued), not after every attempt.
        const left = this.queues.get(d.endpointId)?.length ?? 0;
        if (left < this.windowOf(d.endpointId) || this.queued === 0) this.kickSoon();
      }
    });
  }

  private async attempt(d: ClaimedDelivery, probe: boolean): Promise<void> {
    try {
      const endpoint = this.opts.endpoints.get(d.endpointId);
      const sendable = probe ? endpoint !== undefined && pausedByService(endpoint) : endpoint?.status === 'active';
      if (!endpoint || !sendable) {
        // Deleted, paused, resumed or disabled meanwhile: give it back untouched.
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
      // The window: one more after a success, up to perEndpoint; back to 1 after a failure.
      if (effect === 'succeeded') {
        this.windows.set(d.endpointId, Math.min(this.perEndpoint, this.windowOf(d.endpointId) + 1));
        this.proven.add(d.endpointId);
      } else {
        this.windows.set(d.endpointId, 1);
        this.proven.delete(d.endpointId);
      }
      await applyToEndpoint(
        this.opts.store,
        endpoint,
        effect,
        update.lastAttemptAt ?? this.opts.clock.now(),
        update.error,
      ).catch(this.opts.onError);
      if (probe && effect === 'succeeded') this.kick();
    } catch (err) {
      this.opts.onError(err);
      this.release(d);
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
    return this.inStoreTurn(async () => {
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
}
