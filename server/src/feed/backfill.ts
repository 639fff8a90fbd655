/**
 * Replays the simulated day through the real adapters and the feed, in virtual time, so line
 * history, movement and the delayed view have data from the first second; then stores every
 * player's past games as game logs.
 */

import type { Board } from '../board/types';
import { ADAPTERS } from '../books';
import type { GameLog, GameLogStore } from '../history/types';
import { BACKFILL_SPAN_MS, pastGameLogs, replayOf, SIM_SPORT_IDS, type SimWorld } from '../upstream/sim';
import type { FeedCore } from './core';

const MIN = 60_000;
/** The delayed view (10 minutes) reads boards from here on, so they are made every fine step. */
const FINE_WINDOW_MS = 20 * MIN;

export interface BackfillOptions {
  core: FeedCore;
  world: SimWorld;
  now: number;
  /** How far back the replay starts (default BACKFILL_SPAN_MS: the day so far; lines up longer appear at its start). */
  fromMs?: number;
  /** Step of the replay before the last 20 minutes, which only history reads (default an hour). */
  coarseStepMs?: number;
  /** Step within the last 20 minutes, which the delayed view reads (default 5 min). */
  fineStepMs?: number;
  gameLogs?: GameLogStore | undefined;
  /**
   * The newest point history already holds (a restart on the same store): the replay up to
   * it rebuilds the boards and quotes without writing them again, and it is itself a step,
   * so what is written from there on is exactly what moved since.
   */
  storedUntilMs?: number | undefined;
  /** Replay exactly these moments (ascending) instead of the steps (the backtest: each game's close, start, periods, end). */
  times?: readonly number[] | undefined;
  /** Called after each step with its time and board (the backtest reads the boards the server would have served). */
  onStep?: ((at: number, board: Board) => void) | undefined;
  /** Where it is, for a start-up that shows progress: storing past game logs, then each replay step. */
  onProgress?: ((progress: BackfillProgress) => void) | undefined;
}

/** The backfill's stages: the past game logs being stored (a first start stores a season's), then the replay. */
export type BackfillProgress = { stage: 'game logs'; logs: number } | { stage: 'replay'; step: number; steps: number };

/**
 * Past logs from the newest date already stored on, per sport: a restart on the same store
 * adds only the games played since (older ones are there; the insert skips duplicates anyway).
 */
async function notYetStored(store: GameLogStore, logs: GameLog[]): Promise<GameLog[]> {
  const newest = new Map<string, string>();
  for (const sport of SIM_SPORT_IDS) {
    const probe = logs.find((l) => l.sport === sport);
    if (!probe) continue;
    const [latest] = await store.forPlayer({ sport, playerKey: probe.playerKey, stat: probe.stat, limit: 1 });
    if (latest) newest.set(sport, latest.date);
  }
  return logs.filter((l) => l.date >= (newest.get(l.sport) ?? ''));
}

export async function backfill(opts: BackfillOptions): Promise<{ steps: number; logs: number }> {
  const { core, world, now } = opts;
  // Past games first: the replay below records today's finals, which notYetStored would take as "newest stored".
  let logs = 0;
  if (opts.gameLogs) {
    const toStore = await notYetStored(opts.gameLogs, pastGameLogs(world, now));
    opts.onProgress?.({ stage: 'game logs', logs: toStore.length });
    logs = await opts.gameLogs.append(toStore);
  }
  const from = opts.fromMs ?? now - BACKFILL_SPAN_MS;
  const coarse = opts.coarseStepMs ?? 60 * MIN;
  const fine = opts.fineStepMs ?? 5 * MIN;
  const times: number[] = opts.times ? [...opts.times] : [];
  if (!opts.times) for (let t = now; t >= from; t -= t > now - FINE_WINDOW_MS ? fine : coarse) times.unshift(t);
  const stored = opts.storedUntilMs;
  if (stored !== undefined && stored > from && stored < now && !times.includes(stored)) {
    times.splice(
      times.findIndex((t) => t > stored),
      0,
      stored,
    );
  }
  const replay = replayOf(world);
  let steps = 0;
  for (const t of times) {
    for (const sport of SIM_SPORT_IDS) {
      core.applyPart('prizepicks', sport, ADAPTERS.prizepicks.parse(replay.prizepicks(sport, t)), t);
    }
    core.applyPart('underdog', 'all', ADAPTERS.underdog.parse(replay.underdog(t)), t);
    await core.commit(['prizepicks', 'underdog'], t, { notify: false, record: stored === undefined || t > stored });
    opts.onStep?.(t, core.current());
    steps++;
    opts.onProgress?.({ stage: 'replay', step: steps, steps: times.length });
  }
  return { steps, logs };
}
