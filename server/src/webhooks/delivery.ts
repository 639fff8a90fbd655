/**
 * The webhooks' background work, run by the one replica that delivers (on the shared engines,
 * the holder of the webhook lease; embedded, this process): producing each board change's
 * events and sending what is due. None of it runs on a request's path; the callers' side is
 * service.ts.
 */
import type { SettlementReader } from '../history/settlement';
import type { KeyCache } from '../keys/cache';
import type { PropOdds } from '../odds';
import type { QueryDeps } from '../queries/deps';
import type { AttemptDeps } from './attempt';
import type { WebhookClock } from './clock';
import { Dispatcher } from './dispatcher';
import { EndpointCache } from './endpoints';
import { type ChangeFeed, Producer } from './producer';
import { httpSender, type Sender } from './sender';
import type { WebhookStore } from './store';
import { systemResolver, type TargetPolicy } from './targets';

/** Work that runs only on the replica that leads webhooks. */
export interface LeaderWork {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Runs `work` while this replica leads (started on taking the lead, stopped on losing it). */
export type Leadership = (work: LeaderWork, onError: (err: unknown) => void) => { stop(): Promise<void> };

/** How long a replica that failed to start the work waits before trying again. */
const RESTART_MS = 5_000;

/** One process, one leader (the embedded default): starts at once, and again after a failure, until stopped. */
export const alwaysLead: Leadership = (work, onError) => {
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const begin = (): Promise<void> =>
    work.start().catch(async (err) => {
      onError(err);
      await work.stop().catch(onError);
      if (stopped) return;
      retry = setTimeout(() => {
        started = begin();
      }, RESTART_MS);
      retry.unref();
    });
  let started = begin();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await started;
      await work.stop();
    },
  };
};

export interface WebhookOptions {
  store: WebhookStore;
  /** What targets are allowed and how names resolve (default: https only, the system resolver). */
  targets?: Partial<TargetPolicy>;
  clock?: WebhookClock;
  sender?: Sender;
  /** Retry jitter's randomness, in [0, 1). */
  random?: () => number;
  leadership?: Leadership;
  /** Attempts under way at once, and to one endpoint. */
  maxInFlight?: number;
  perEndpoint?: number;
}

export interface DeliveryWorkDeps extends WebhookOptions {
  clock: WebhookClock;
  keys: KeyCache;
  changes: ChangeFeed;
  views: QueryDeps['views'];
  odds?: PropOdds | undefined;
  settlements?: SettlementReader | undefined;
  onError: (err: unknown) => void;
}

/** Finished deliveries (and their events) are kept this long. */
export const DELIVERY_RETENTION_MS = 7 * 86_400_000;

/** The producer, the dispatcher and the pruning of old deliveries, run wherever this replica leads. */
export class DeliveryWork {
  /** What one attempt needs (the callers' test ping makes its first attempt at once). */
  readonly attemptDeps: AttemptDeps;
  /** The endpoints as the work reads them: invalidated on every change a caller makes. */
  readonly endpoints: EndpointCache;
  private readonly producer: Producer;
  private readonly dispatcher: Dispatcher;
  private lead: { stop(): Promise<void> } | undefined;
  private prune: NodeJS.Timeout | undefined;
  private readonly ownSender: (Sender & { close(): void }) | undefined;

  constructor(private readonly deps: DeliveryWorkDeps) {
    this.ownSender = deps.sender ? undefined : httpSender();
    this.attemptDeps = {
      sender: deps.sender ?? (this.ownSender as Sender),
      targets: {
        allowHttp: deps.targets?.allowHttp ?? false,
        allowPrivate: deps.targets?.allowPrivate ?? false,
        resolve: deps.targets?.resolve ?? systemResolver,
      },
      clock: deps.clock,
      random: deps.random ?? Math.random,
      wallNow: Date.now,
    };
    this.endpoints = new EndpointCache(deps.store);
    this.dispatcher = new Dispatcher({
      ...this.attemptDeps,
      store: deps.store,
      endpoints: this.endpoints,
      isKeyActive: (keyId) => deps.keys.isActive(keyId),
      ...(deps.maxInFlight !== undefined ? { maxInFlight: deps.maxInFlight } : {}),
      ...(deps.perEndpoint !== undefined ? { perEndpoint: deps.perEndpoint } : {}),
      onError: deps.onError,
    });
    this.producer = new Producer({
      store: deps.store,
      endpoints: this.endpoints,
      keys: deps.keys,
      changes: deps.changes,
      views: deps.views,
      odds: deps.odds,
      settlements: deps.settlements,
      clock: deps.clock,
      onStored: () => this.dispatcher.kick(),
      onError: deps.onError,
    });
  }

  /** Starts the work wherever this replica leads webhooks. */
  start(): void {
    if (this.lead) return;
    const { store, clock, onError } = this.deps;
    const work: LeaderWork = {
      start: async () => {
        await this.producer.start();
        this.dispatcher.start();
        this.prune = setInterval(() => {
          store.prune(clock.now() - DELIVERY_RETENTION_MS).catch(onError);
        }, 3_600_000);
        this.prune.unref();
      },
      stop: async () => {
        clearInterval(this.prune);
        await this.producer.stop();
        await this.dispatcher.stop();
      },
    };
    this.lead = (this.deps.leadership ?? alwaysLead)(work, onError);
  }

  async stop(): Promise<void> {
    await this.lead?.stop();
    this.lead = undefined;
    this.ownSender?.close();
  }

  /** Sends what is due now (a caller resumed an endpoint, or asked for a retry). */
  kick(): void {
    this.dispatcher.kick();
  }

  /** Every change handed over so far is stored (tests). */
  produced(): Promise<void> {
    return this.producer.idle();
  }
}
