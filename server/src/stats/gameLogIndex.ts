/**
 * Every player's game logs in memory, with their projections computed once per change: views
 * ask for a projection per scan row on every board change, and the player routes search
 * players by name, so both must be lookups, not queries. The store stays the truth: the index
 * reloads it on an interval (imports run in another process; other replicas record finals),
 * and takes this process's own appends at once through `watch()`.
 */
import { type Projection, type SportId, STAT_KEYS } from '@propsfeed/contract';
import type { ProjectionSource } from '../feed/types';
import type { GameLog, GameLogStore } from '../history/types';
import { byDateDesc } from './context';
import type { SearchablePlayer } from './playerSearch';
import { projectStat } from './projection';

/** One player's logs, newest first per stat. */
export interface IndexedPlayer extends SearchablePlayer {
  team: string;
  byStat: Map<string, GameLog[]>;
}

/** How often the index rereads the store when nothing told it of a change. */
export const DEFAULT_RELOAD_MS = 60_000;

const playerId = (sport: string, key: string) => `${sport}|${key}`;
const projectionId = (sport: string, key: string, stat: string) => `${sport}|${key}|${stat}`;

export class GameLogIndex implements ProjectionSource {
  private players = new Map<string, IndexedPlayer>();
  private projections = new Map<string, Projection>();
  private timer: NodeJS.Timeout | undefined;
  /** Changes whenever the logs held change: answers built from them are cached under it. */
  version = 0;
  private reloading: Promise<void> | undefined;

  constructor(
    private readonly store: GameLogStore,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** Loads the store, then keeps reloading it every `reloadMs` until `stop()`. */
  async start(reloadMs = DEFAULT_RELOAD_MS): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => this.reload().catch(this.onError), reloadMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Rereads every log of every sport's stats and swaps the index in one step. */
  reload(): Promise<void> {
    this.reloading ??= this.readAll().finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  /**
   * The store with appends that also reach this index at once (for the feed's recorded
   * finals), instead of at the next reload.
   */
  watch(): GameLogStore {
    return {
      append: async (logs) => {
        const added = await this.store.append(logs);
        if (added > 0) this.add(logs);
        return added;
      },
      forPlayer: (q) => this.store.forPlayer(q),
      forStat: (sport, stat, opts) => this.store.forStat(sport, stat, opts),
    };
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

  private async readAll(): Promise<void> {
    const logs: GameLog[] = [];
    for (const sport of Object.keys(STAT_KEYS) as SportId[]) {
      for (const stat of STAT_KEYS[sport]) logs.push(...(await this.store.forStat(sport, stat)));
    }
    const players = new Map<string, IndexedPlayer>();
    // Rows of the store are distinct already (its key is the game and stat).
    const touched = insert(players, logs, false);
    this.players = players;
    this.projections = new Map();
    this.project(touched.values());
    this.version += 1;
  }

  /** Adds logs the store accepted; a log already held (same game and stat) is not added twice. */
  private add(logs: readonly GameLog[]): void {
    this.project(insert(this.players, logs, true).values());
    this.version += 1;
  }

  private project(touched: Iterable<[IndexedPlayer, string]>): void {
    for (const [player, stat] of touched) {
      const id = projectionId(player.sport, player.playerKey, stat);
      const projection = projectStat(player.sport, stat, player.byStat.get(stat) ?? []);
      if (projection) this.projections.set(id, projection);
      else this.projections.delete(id);
    }
  }
}

/** Files logs under their player and stat, newest first; returns each (player, stat) touched. */
function insert(
  players: Map<string, IndexedPlayer>,
  logs: readonly GameLog[],
  dedupe: boolean,
): Map<string, [IndexedPlayer, string]> {
  const touched = new Map<string, [IndexedPlayer, string]>();
  for (const log of logs) {
    const id = playerId(log.sport, log.playerKey);
    let player = players.get(id);
    if (!player) {
      player = { sport: log.sport, playerKey: log.playerKey, name: log.player, team: log.team, byStat: new Map() };
      players.set(id, player);
    }
    const list = player.byStat.get(log.stat) ?? [];
    if (dedupe && list.some((g) => g.date === log.date && g.opponent === log.opponent)) continue;
    list.push(log);
    player.byStat.set(log.stat, list);
    touched.set(`${id}|${log.stat}`, [player, log.stat]);
  }
  for (const [player, stat] of touched.values()) {
    const list = player.byStat.get(stat) as GameLog[];
    list.sort(byDateDesc);
    const newest = list[0] as GameLog;
    // The name and team a player shows under are those of their newest game.
    if (newest.date >= newestDate(player)) {
      player.name = newest.player;
      player.team = newest.team;
    }
  }
  return touched;
}

function newestDate(player: IndexedPlayer): string {
  let newest = '';
  for (const list of player.byStat.values()) if (list[0] && list[0].date > newest) newest = list[0].date;
  return newest;
}
