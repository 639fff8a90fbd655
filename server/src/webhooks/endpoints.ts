/**
 * Every endpoint, as the replica producing and delivering reads them: reloaded from the store
 * whenever its version (count, last change) moves, which is read at most once per
 * `minCheckMs`, so a change made on any replica is seen within that.
 */
import type { EndpointRecord, WebhookStore } from './store';

export class EndpointCache {
  /** Moves on each reload: readers that build from the endpoints compare it with the one they built from. */
  generation = 0;
  private byId = new Map<string, EndpointRecord>();
  private version: string | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<boolean> | undefined;

  constructor(
    private readonly store: WebhookStore,
    /** Real milliseconds between reads of the version (default 250). */
    private readonly minCheckMs = 250,
  ) {}

  /** Reloads when the store's endpoints changed (at most once per minCheckMs unless forced); true when this call did. */
  refresh(force = false): Promise<boolean> {
    if (!force && Date.now() - this.checkedAt < this.minCheckMs) return Promise.resolve(false);
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<boolean> {
    this.checkedAt = Date.now();
    const version = await this.store.endpointsVersion();
    if (version === this.version) return false;
    const all = await this.store.allEndpoints();
    this.byId = new Map(all.map((e) => [e.id, e]));
    this.version = version;
    this.generation++;
    return true;
  }

  get(id: string): EndpointRecord | undefined {
    return this.byId.get(id);
  }

  all(): Iterable<EndpointRecord> {
    return this.byId.values();
  }

  /** Forgets what was read: the next refresh reloads (this replica changed an endpoint). */
  invalidate(): void {
    this.version = undefined;
    this.checkedAt = Number.NEGATIVE_INFINITY;
  }
}
