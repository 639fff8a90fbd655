/**
 * The simulated world: a rolling schedule per sport, rosters with stable per-player means,
 * lines that open 12 hours before a game, drift while pre-game and follow the score while
 * live, and final values. Everything is a pure function of (seed, time), so any moment —
 * now or hours ago, for the backfill — can be asked for, and tests can assert exact values.
 */
import type { GameState, SportId } from '@propsfeed/contract';
import { FIRST_NAMES, HANDLE_PARTS, LAST_NAMES, SUFFIXES } from './names';
import { draw, gaussian, pick, stream } from './random';
import { SIM_SPORTS, type SimSport, type Slot } from './sports';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** Lines open this long before the start. */
export const OPEN_BEFORE_MS = 12 * HOUR;
/** Final games stay on Underdog's board this long. */
export const FINAL_KEEP_MS = 30 * MIN;
const BUCKET_MS = 40 * MIN;
const SCHEDULE_EPOCH = Date.UTC(2024, 0, 1);

export interface SimPlayer {
  id: string;
  name: string;
  team: string;
  slot: Slot;
  /** Per-game means of the slot's base stats for this player. */
  means: Record<string, number>;
}

export interface SimGame {
  sport: SimSport;
  k: number;
  ppId: number;
  udId: number;
  home: string;
  away: string;
  startMs: number;
  endMs: number;
}

export interface SimLive {
  state: GameState;
  period?: number;
  /** m:ss within the period (counting down or up per sport). */
  clock?: string;
}

/** One prop of one player in one game as it stands at a time, for both books. */
export interface SimProp {
  player: SimPlayer;
  stat: string;
  /** PrizePicks' standard line, or undefined when PrizePicks does not post it. */
  ppLine?: number;
  /** Goblin/demon alternates PrizePicks posts beside some standard lines. */
  ppAlternates?: { goblin: number; demon: number };
  udLine?: number;
  /** American odds; undefined when Underdog shows payout multipliers only. */
  udOver?: number;
  udUnder?: number;
  /** Underdog offers only the higher side. */
  udOneSided: boolean;
  /** In-game value while live or final. */
  value?: number;
}

function roundHalf(x: number): number {
  return Math.max(0.5, Math.floor(x) + 0.5);
}

function stepOf(mean: number): number {
  return mean >= 60 ? 5 : mean >= 20 ? 1 : 0.5;
}

/** American odds of an implied probability, rounded to 5 and never between -100 and +100. */
function american(p: number): number {
  const raw = p >= 0.5 ? -(100 * p) / (1 - p) : (100 * (1 - p)) / p;
  const rounded = Math.round(raw / 5) * 5;
  if (rounded > -100 && rounded < 100) return rounded < 0 ? -100 : 100;
  return rounded;
}

export class SimWorld {
  private readonly rosters = new Map<string, SimPlayer[]>();
  private readonly perms = new Map<string, number[]>();
  private readonly games = new Map<string, SimGame>();
  private readonly finals = new Map<string, number>();
  /** Both books render the same moment: props of the last time asked are kept for the second. */
  private propsMemo: { t: number; byGame: Map<SimGame, SimProp[]> } = { t: Number.NaN, byGame: new Map() };

  constructor(readonly seed: number) {}

  sport(id: SportId): SimSport {
    return SIM_SPORTS.find((s) => s.id === id) as SimSport;
  }

  roster(sport: SimSport, team: string): SimPlayer[] {
    const key = `${sport.id}|${team}`;
    let players = this.rosters.get(key);
    if (players) return players;
    players = sport.slots.map((slot, i) => {
      const r = stream(this.seed, 'player', sport.id, team, i);
      const factor = 0.75 + r() * 0.5;
      const means: Record<string, number> = {};
      for (const [stat, m] of Object.entries(slot.means)) means[stat] = m * factor;
      let name: string;
      if (sport.id === 'lol') name = pick(r(), HANDLE_PARTS) + pick(r(), HANDLE_PARTS);
      else {
        name = `${pick(r(), FIRST_NAMES)} ${pick(r(), LAST_NAMES)}`;
        if (r() < 0.08) name += ` ${pick(r(), SUFFIXES)}`;
      }
      return { id: `${sport.id}-${sport.teams.indexOf(team)}-${i}`, name, team, slot, means };
    });
    this.rosters.set(key, players);
    return players;
  }

  /** The k-th game of a sport's rolling schedule. */
  game(sport: SimSport, k: number): SimGame {
    const key = `${sport.id}|${k}`;
    const cached = this.games.get(key);
    if (cached) return cached;
    const perGameCycle = Math.floor(sport.teams.length / 2);
    const cycle = Math.floor(k / perGameCycle);
    const permKey = `${sport.id}|${cycle}`;
    let perm = this.perms.get(permKey);
    if (!perm) {
      const r = stream(this.seed, 'cycle', sport.id, cycle);
      perm = sport.teams.map((_, i) => i);
      for (let i = perm.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [perm[i], perm[j]] = [perm[j] as number, perm[i] as number];
      }
      this.perms.set(permKey, perm);
    }
    const slot = k - cycle * perGameCycle;
    const sportIndex = SIM_SPORTS.indexOf(sport);
    const jitter = Math.floor(draw(this.seed, 'start', sport.id, k) * 3) * 5 * MIN;
    const startMs = SCHEDULE_EPOCH + (sportIndex * 7 + k * sport.spacingMin) * MIN + jitter;
    const game: SimGame = {
      sport,
      k,
      ppId: 100_000 + sportIndex * 1_000_000 + k,
      udId: 5_000_000 + sportIndex * 1_000_000 + k * 3,
      home: sport.teams[perm[2 * slot] as number] as string,
      away: sport.teams[perm[2 * slot + 1] as number] as string,
      startMs,
      endMs: startMs + sport.durationMin * MIN,
    };
    this.games.set(key, game);
    if (this.games.size > 20_000) this.games.clear();
    return game;
  }

  /** Games starting in [fromMs, toMs), in start order. */
  gamesStarting(sport: SimSport, fromMs: number, toMs: number): SimGame[] {
    const spacing = sport.spacingMin * MIN;
    const first = Math.floor((fromMs - SCHEDULE_EPOCH) / spacing) - 1;
    const last = Math.ceil((toMs - SCHEDULE_EPOCH) / spacing) + 1;
    const out: SimGame[] = [];
    for (let k = Math.max(0, first); k <= last; k++) {
      const g = this.game(sport, k);
      if (g.startMs >= fromMs && g.startMs < toMs) out.push(g);
    }
    return out;
  }

  /** Games with lines up at `t`: open (12 h before start) until final (plus `keepFinalMs`). */
  gamesAt(sport: SimSport, t: number, keepFinalMs: number): SimGame[] {
    return this.gamesStarting(sport, t - sport.durationMin * MIN - keepFinalMs, t + OPEN_BEFORE_MS);
  }

  live(game: SimGame, t: number): SimLive {
    if (t < game.startMs) return { state: 'pre' };
    if (t >= game.endMs) return { state: 'final' };
    const { sport } = game;
    const f = (t - game.startMs) / (game.endMs - game.startMs);
    const period = Math.min(sport.periods, Math.floor(f * sport.periods) + 1);
    if (sport.countdown === null) return { state: 'live', period };
    const within = f * sport.periods - (period - 1);
    const secs = Math.floor(sport.periodMin * 60 * (sport.countdown ? 1 - within : within));
    const base = sport.countdown ? 0 : (period - 1) * sport.periodMin * 60;
    const total = base + secs;
    return { state: 'live', period, clock: `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}` };
  }

  /** The final value of a base stat for a player in a game (stable mean, game-to-game noise). */
  finalBase(game: SimGame, player: SimPlayer, base: string): number {
    const key = `${game.sport.id}|${game.k}|${player.id}|${base}`;
    let v = this.finals.get(key);
    if (v === undefined) {
      const mean = player.means[base] ?? 0;
      const r = stream(this.seed, 'final', key);
      v = Math.max(0, Math.round(mean + gaussian(r) * Math.sqrt(mean) * (mean > 30 ? 3 : 1)));
      this.finals.set(key, v);
      if (this.finals.size > 200_000) this.finals.clear();
    }
    return v;
  }

  private components(sport: SimSport, stat: string): readonly string[] {
    return sport.combos[stat] ?? [stat];
  }

  mean(sport: SimSport, player: SimPlayer, stat: string): number {
    return this.components(sport, stat).reduce((sum, c) => sum + (player.means[c] ?? 0), 0);
  }

  /** The value of a stat at time t: final values accrue in two-minute steps while live. */
  value(game: SimGame, player: SimPlayer, stat: string, t: number): number {
    const span = game.endMs - game.startMs;
    const steps = Math.max(1, Math.round(span / (2 * MIN)));
    const f = t >= game.endMs ? 1 : Math.floor(((t - game.startMs) / span) * steps) / steps;
    let v = 0;
    for (const c of this.components(game.sport, stat)) v += Math.floor(this.finalBase(game, player, c) * f);
    return v;
  }

  /** Every prop of a game as it stands at `t`, players home first, slot order, stat order. */
  props(game: SimGame, t: number): SimProp[] {
    if (this.propsMemo.t !== t) this.propsMemo = { t, byGame: new Map() };
    let props = this.propsMemo.byGame.get(game);
    if (!props) {
      props = this.computeProps(game, t);
      this.propsMemo.byGame.set(game, props);
    }
    return props;
  }

  private computeProps(game: SimGame, t: number): SimProp[] {
    const { sport } = game;
    const state = this.live(game, t).state;
    const bucket = Math.max(0, Math.floor((Math.min(t, game.startMs) - (game.startMs - OPEN_BEFORE_MS)) / BUCKET_MS));
    const out: SimProp[] = [];
    for (const team of [game.home, game.away]) {
      for (const player of this.roster(sport, team)) {
        for (const stat of player.slot.posted) {
          const key = `${sport.id}|${game.k}|${player.id}|${stat}`;
          const mean = this.mean(sport, player, stat);
          const step = stepOf(mean);
          const r = stream(this.seed, 'line', key);
          const ppPosts = r() < 0.92;
          const udPosts = r() < 0.86;
          const udOffset = pick(r(), [-step, 0, 0, 0, 0, 0, step]);
          const hasPrices = r() < 0.88;
          const oneSided = r() < 0.05;
          const alternates = r() < 0.15;
          let line = roundHalf(mean * (0.94 + r() * 0.08));
          let lean = (r() - 0.5) * 0.08;
          // Pre-game drift: in each 40-minute bucket since the open, the line may move a step or the price shift.
          const moves = stream(this.seed, 'moves', key);
          for (let b = 0; b < bucket; b++) {
            const m = moves();
            if (m < 0.06) line = Math.max(step / 2, line - step);
            else if (m > 0.94) line += step;
            else if (m > 0.45 && m < 0.55) lean = Math.max(-0.1, Math.min(0.1, lean + (m - 0.5) * 0.6));
          }
          const prop: SimProp = { player, stat, udOneSided: oneSided };
          if (state !== 'pre') {
            const value = this.value(game, player, stat, t);
            prop.value = value;
            if (state === 'live') {
              const f = (t - game.startMs) / (game.endMs - game.startMs);
              line = roundHalf(value + mean * (1 - f));
            }
          }
          if (ppPosts && state !== 'final') {
            prop.ppLine = line;
            if (alternates && state === 'pre')
              prop.ppAlternates = { goblin: Math.max(0.5, line - 2 * step), demon: line + 2 * step };
          }
          if (udPosts) {
            prop.udLine = Math.max(0.5, line + (state === 'pre' ? udOffset : 0));
            if (hasPrices) {
              prop.udOver = american(0.5238 + lean);
              prop.udUnder = american(0.5238 - lean);
            }
          }
          out.push(prop);
        }
      }
    }
    return out;
  }
}

export { SIM_SPORTS };
