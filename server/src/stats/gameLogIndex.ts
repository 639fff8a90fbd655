/**
 * Every player's game logs in memory, with their projections computed once per change: views
 * ask for a projection per scan row on every board change, and the player routes search
 * players by name, so both must be lookups, not queries. The store stays the truth: the index
 * checks it on an interval (finals are recorded by the feed, imports run in another process,
 * other replicas share the store) and catches up when the number of stored logs changed.
 */
import { type Projection, type SportId, STAT_KEYS } from '@propsfeed/contract';
import type { ProjectionSource } from '../board/types';
import { historyDb } from '../history/schema';
import type { GameLog, GameLogStore } from '../history/types';
import type { Db } from '../store/db';
import { byDateDesc } from './context';
import type { SearchablePlayer } from './playerSearch';
import { projectStat } from './projection';

/** One player's logs, newest first per stat. */
export interface IndexedPlayer extends SearchablePlayer {
  team: string;
  byStat: Map<string, GameLog[]>;
  /** Date of the newest game: its name and team are the ones the player shows under. */
  newestDate: string;
}

/** How often the index checks the store for new logs. */
export const DEFAULT_CHECK_MS = 15_000;
/** New logs are looked for this far before the newest date held (finals land on today or yesterday). */
const CATCH_UP_DAYS = 2;

const playerId = (sport: string, key: string) => `${sport}|${key}`;
const projectionId = (sport: string, key: string, stat: string) => `${sport}|${key}|${stat}`;
const SPORTS = Object.keys(STAT_KEYS) as SportId[];
const statId = (sport: string, stat: string) => `${sport}|${stat}`;
const CATALOG_STATS = new Set(SPORTS.flatMap((sport) => STAT_KEYS[sport].map((stat) => statId(sport, stat))));

/** How many logs the store holds: the cheap check of whether the index is behind. */
export function gameLogCount(db: Db): () => Promise<number> {
  const { kysely } = historyDb(db);
  return async () => {
    const row = await kysely
      .selectFrom('game_logs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };
}

export class GameLogIndex implements ProjectionSource {
  private players = new Map<string, IndexedPlayer>();
  private projections = new Map<string, Projection>();
  /** Logs held, and the store's count when last looked at. */
  private held = 0;
  private seen = 0;
  private newestDate = '';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Changes whenever the logs held change: answers built from them are cached under it. */
  version = 0;

  constructor(
    private readonly store: GameLogStore,
    private readonly count: () => Promise<number>,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Loads the store, then checks it every `checkMs` until `stop()`. */
  async start(checkMs = DEFAULT_CHECK_MS): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => this.refresh().catch(this.onError), checkMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Rereads every log and swaps the index in one step. */
  reload(): Promise<void> {
    return this.once(async () => {
      this.seen = await this.count();
      await this.readAll();
    });
  }

  /**
   * Catches up when the store's count of logs moved since it was last seen: the recent dates
   * first (recorded finals); everything when they do not account for the change (an import
   * of older games). Logs the index cannot hold (a stat outside the catalog) never cause a
   * reload loop: the count is compared with the last one seen, not with the logs held.
   */
  refresh(): Promise<void> {
    return this.once(async () => {
      const stored = await this.count();
      if (stored === this.seen) return;
      const before = this.held;
      if (this.newestDate !== '') {
        const since = new Date(Date.parse(this.newestDate) - CATCH_UP_DAYS * 86_400_000).toISOString().slice(0, 10);
        const recent: GameLog[] = [];
        for (const sport of SPORTS) {
          for (const stat of STAT_KEYS[sport])
            recent.push(...(await this.store.forStat(sport, stat, { sinceDate: since })));
        }
        this.add(recent);
      }
      if (this.held - before !== stored - this.seen) await this.readAll();
      this.seen = stored;
    });
  }

  get(sport: SportId, playerKey: string, stat: string): Projection | undefined {
    return this.projections.get(projectionId(sport, playerKey, stat));
  }

  player(sport: SportId, playerKey: string): IndexedPlayer | undefined {
    return this.players.get(playerId(sport, playerKey));
  }

  /** Every player with logs, for name search. */
  allPlayers(): Iterable<IndexedPlayer> {
    return this.players.values();
  }

  private once(task: () => Promise<void>): Promise<void> {
    this.running ??= task().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async readAll(): Promise<void> {
    // One read of the whole table (a query per sport and stat took twice as long); only the catalog's stats are held.
    const logs = (await this.store.all()).filter((log) => CATALOG_STATS.has(statId(log.sport, log.stat)));
    this.players = new Map();
    this.projections = new Map();
    this.held = 0;
    this.newestDate = '';
    // Rows of the store are distinct already (its key is the player, stat, date and opponent).
    this.apply(logs, false);
    // A swap is a change even when no log came in.
    this.version += 1;
  }

  /** Adds logs; one already held (same player, stat, date and opponent) is not added twice. */
  private add(logs: readonly GameLog[]): void {
    this.apply(logs, true);
  }

  private apply(logs: readonly GameLog[], dedupe: boolean): void {
    // Keyed by the list itself: the logs come grouped by player and stat, and a key built per log cost more than the rest.
    const touched = new Map<GameLog[], [IndexedPlayer, string]>();
    let player: IndexedPlayer | undefined;
    for (const log of logs) {
      if (player?.playerKey !== log.playerKey || player.sport !== log.sport) {
        const id = playerId(log.sport, log.playerKey);
        player = this.players.get(id);
        if (!player) {
          player = {
            sport: log.sport,
            playerKey: log.playerKey,
            name: log.player,
            team: log.team,
            byStat: new Map(),
            newestDate: log.date,
          };
          this.players.set(id, player);
        }
      }
      let list = player.byStat.get(log.stat);
      if (!list) {
        list = [];
        player.byStat.set(log.stat, list);
      }
      if (dedupe && list.some((g) => g.date === log.date && g.opponent === log.opponent)) continue;
      list.push(log);
      this.held += 1;
      if (log.date > this.newestDate) this.newestDate = log.date;
      if (log.date >= player.newestDate) {
        player.newestDate = log.date;
        player.name = log.player;
        player.team = log.team;
      }
      touched.set(list, [player, log.stat]);
    }
    if (touched.size === 0) return;
    for (const [list, [player, stat]] of touched) {
      list.sort(byDateDesc);
      const id = projectionId(player.sport, player.playerKey, stat);
      const projection = projectStat(player.sport, stat, list);
      if (projection) this.projections.set(id, projection);
      else this.projections.delete(id);
    }
    this.version += 1;
  }
}
