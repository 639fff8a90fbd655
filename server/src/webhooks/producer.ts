/**
 * Turns board changes into stored deliveries, on the one replica that delivers. Changes come
 * from the stream hub (the same BoardChange objects the stream sends, with their cached edge
 * facts), in order, one at a time: each change's events, then its deliveries, then the
 * production cursor (the change's board version) are stored. A replica that starts producing
 * (a restart, a new leader) resumes after the stored cursor from the hub's window; ids derived
 * from the change make a change produced twice store nothing twice.
 */
import type { EntryType } from '@propsfeed/contract';
import { callerOf } from '../auth/caller';
import type { SettlementReader } from '../history/settlement';
import type { KeyCache } from '../keys/cache';
import type { PropOdds } from '../odds';
import type { StreamEncoder } from '../stream/encode';
import type { ViewRegistry } from '../views';
import type { BoardChange } from '../views/boardChanges';
import { takesEvents } from './attempt';
import { type Audience, audienceOf, followsGame } from './audience';
import { EventCaps } from './caps';
import type { WebhookClock } from './clock';
import type { EndpointCache } from './endpoints';
import { type Addressed, produceChange } from './events';
import { SETTLE_GIVE_UP_MS, settledEvents } from './settled';
import type { EventRecord, NewDelivery, WebhookStore } from './store';

/** What the producer reads the board's changes from: the stream hub. */
export interface ChangeFeed {
  readonly encoder: StreamEncoder;
  /** Called with each change (or, after missed boards, 'gap' and the board); returns an unsubscribe. */
  onChange(listener: (change: BoardChange | 'gap', version: number) => void): () => void;
  /** The changes after board `version` the window still holds; undefined when it does not reach it. */
  changesAfter(version: number): BoardChange[] | undefined;
}

export interface ProducerOptions {
  store: WebhookStore;
  endpoints: EndpointCache;
  keys: KeyCache;
  changes: ChangeFeed;
  views: ViewRegistry;
  odds?: PropOdds | undefined;
  settlements?: SettlementReader | undefined;
  clock: WebhookClock;
  /** New deliveries are stored. */
  onStored: () => void;
  onError: (err: unknown) => void;
  /** Real ms between looks at capped minutes and games waiting to settle (default 1,000). */
  tickMs?: number;
}

export const BOARD_CURSOR = 'board';
/** Deliveries stored per transaction: the first are being sent while the rest are stored. */
const ENQUEUE_SLICE = 20_000;

type Queued = BoardChange | { gap: number };

export class Producer {
  private readonly caps = new EventCaps();
  private queue: Queued[] = [];
  private draining: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;
  private lastVersion = 0;
  private audiences: Audience[] = [];
  /** The endpoint cache's generation the audiences were built from. */
  private builtFrom = -1;
  private audiencesStale = true;
  private unwatchKeys: (() => void) | undefined;
  private tick: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private running = false;

  constructor(private readonly opts: ProducerOptions) {}

  async start(): Promise<void> {
    if (this.running) return;
    // Where the last producer stopped (it may fail: the store down; start is then tried again).
    const cursor = await this.opts.store.cursor(BOARD_CURSOR);
    this.running = true;
    this.unsubscribe = this.opts.changes.onChange((change, version) => {
      this.queue.push(change === 'gap' ? { gap: version } : change);
      this.drain();
    });
    this.unwatchKeys = this.opts.keys.onChange(() => {
      this.audiencesStale = true;
    });
    if (cursor !== undefined) {
      this.lastVersion = cursor;
      // What the last producer had not reached, ahead of what arrives from now on (a change
      // in both is produced once: versions at or below the last produced are skipped).
      this.queue.unshift(...(this.opts.changes.changesAfter(cursor) ?? []));
    }
    this.drain();
    this.tick = setInterval(() => {
      this.ticking ??= this.onTick().finally(() => {
        this.ticking = undefined;
      });
    }, this.opts.tickMs ?? 1_000);
    this.tick.unref();
  }

  /** Stops taking changes and waits for the one being stored. */
  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unwatchKeys?.();
    clearInterval(this.tick);
    this.queue = [];
    await this.draining;
    await this.ticking;
  }

  /** Settled for tests: every queued change stored. */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private drain(): void {
    if (this.draining || !this.running) return;
    this.draining = (async () => {
      while (this.running && this.queue.length > 0) {
        const next = this.queue.shift() as Queued;
        try {
          await this.produce(next);
        } catch (err) {
          this.opts.onError(err);
        }
      }
    })().finally(() => {
      this.draining = undefined;
    });
  }

  private async currentAudiences(): Promise<Audience[]> {
    await this.opts.endpoints.refresh();
    const { generation } = this.opts.endpoints;
    if (generation !== this.builtFrom || this.audiencesStale) {
      this.builtFrom = generation;
      this.audiencesStale = false;
      const audiences: Audience[] = [];
      for (const endpoint of this.opts.endpoints.all()) {
        if (!takesEvents(endpoint)) continue;
        const record = this.opts.keys.activeRecord(endpoint.keyId);
        if (!record) continue;
        const caller = callerOf(record);
        if (caller.policy.maxWebhooks === 0) continue;
        audiences.push(audienceOf(endpoint, caller));
      }
      this.audiences = audiences;
    }
    return this.audiences;
  }

  private entryOf = (audience: Audience, atMs: number): EntryType | undefined => {
    const id = audience.endpoint.entry;
    return id === null || !this.opts.odds ? undefined : this.opts.odds.entry(id, atMs);
  };

  private async produce(next: Queued): Promise<void> {
    const now = this.opts.clock.now();
    if ('gap' in next) {
      // Boards were missed here: nothing to diff them by; go on from the board that arrived.
      if (next.gap > this.lastVersion) {
        await this.opts.store.enqueue([], [], { name: BOARD_CURSOR, version: next.gap, at: now });
        this.lastVersion = next.gap;
      }
      return;
    }
    const change = next;
    if (change.version <= this.lastVersion) return;
    const audiences = await this.currentAudiences();
    const { addressed, finals } =
      audiences.length === 0
        ? { addressed: [], finals: [] }
        : await produceChange(
            change,
            audiences,
            { encoder: this.opts.changes.encoder, views: this.opts.views, odds: this.opts.odds },
            this.entryOf,
          );
    const { events, deliveries } = this.admitted(addressed, now);
    const watched = finals.filter((g) => audiences.some((a) => a.events.has('prop.settled') && followsGame(a, g)));
    if (watched.length > 0 && this.opts.settlements) {
      await this.opts.store.watchSettlements(
        watched.map((g) => ({ gameId: g.id, sport: g.sport, date: g.startTime.slice(0, 10), finalAt: now })),
      );
    }
    // The events first, then their deliveries a slice at a time, each sent as soon as it is
    // stored; the cursor moves once all are. A production cut short is done again from the
    // cursor, and its ids make what was already stored a no-op.
    await this.opts.store.enqueue(events, []);
    for (let i = 0; i < deliveries.length; i += ENQUEUE_SLICE) {
      await this.opts.store.enqueue([], deliveries.slice(i, i + ENQUEUE_SLICE));
      this.opts.onStored();
    }
    await this.opts.store.enqueue([], [], { name: BOARD_CURSOR, version: change.version, at: now });
    this.lastVersion = change.version;
  }

  /** The deliveries each endpoint's cap lets through (the rest are counted for its summary), and their events. */
  private admitted(addressed: readonly Addressed[], now: number): { events: EventRecord[]; deliveries: NewDelivery[] } {
    const events = new Map<string, EventRecord>();
    const deliveries: NewDelivery[] = [];
    for (const { audience, event } of addressed) {
      const { endpoint } = audience;
      // Disabled or paused by its owner since the audiences were built (the dispatcher marks the
      // shared record at once); one the service paused still gets its events, sent when it answers.
      if (!takesEvents(endpoint)) continue;
      if (!this.caps.admit(endpoint.id, event.type, audience.perMinute, now)) continue;
      if (!events.has(event.id)) events.set(event.id, { ...event, createdAt: now });
      // A delayed tier's endpoint gets its events as late as its REST view shows them.
      const dueAt = now + audience.delayMs;
      deliveries.push({ endpointId: endpoint.id, eventId: event.id, type: event.type, createdAt: now, dueAt });
    }
    return { events: [...events.values()], deliveries };
  }

  private async onTick(): Promise<void> {
    try {
      await this.summarizeCaps();
      await this.settle();
    } catch (err) {
      this.opts.onError(err);
    }
  }

  private async summarizeCaps(): Promise<void> {
    const now = this.opts.clock.now();
    const limits = new Map(this.audiences.map((a) => [a.endpoint.id, a.perMinute]));
    const summaries = this.caps.summaries(now, (id) => limits.get(id) ?? 0);
    if (summaries.length === 0) return;
    await this.opts.store.enqueue(
      summaries.map((s) => s.event),
      summaries.map((s) => ({
        endpointId: s.endpointId,
        eventId: s.event.id,
        type: s.event.type,
        createdAt: now,
        dueAt: now,
      })),
    );
    this.opts.onStored();
  }

  private async settle(): Promise<void> {
    const { settlements } = this.opts;
    if (!settlements) return;
    const watches = await this.opts.store.settlementWatches();
    if (watches.length === 0) return;
    const audiences = await this.currentAudiences();
    const now = this.opts.clock.now();
    for (const watch of watches) {
      const found = await settledEvents(watch, settlements, audiences);
      if (found === undefined) {
        if (now - watch.finalAt > SETTLE_GIVE_UP_MS) await this.opts.store.dropSettlementWatch(watch.gameId);
        continue;
      }
      const { events, deliveries } = this.admitted(found, now);
      await this.opts.store.enqueue(events, deliveries);
      await this.opts.store.dropSettlementWatch(watch.gameId);
      if (deliveries.length > 0) this.opts.onStored();
    }
  }
}
