/**
 * The simulated world: each sport's calendar (calendar.ts, sports.ts), rosters with stable
 * per-player means, lines that go up once both teams' previous games are over (at most a
 * sport's `openBeforeMin` before the start), are set and priced from the books' read of the
 * player (his recent form, partly his mean), move at checkpoints that crowd towards the start,
 * follow the score while live, and final values drawn from the player's distribution. A game's
 * values accrue in independent increments (what is left to play does not depend on what has
 * been played), and a book prices each line by its own read: the over chance its read gives,
 * with the read's own uncertainty in it, so its de-vigged prices are calibrated wherever its
 * read is unbiased. Everything is a pure function of (seed, time), so any moment — now or
 * hours ago, for the backfill — can be asked for, and tests can assert exact values.
 */
import type { GameState, SportId } from '@propsfeed/contract';
import { COUNT_MEAN_LIMIT, countQuantile, probabilitiesAt, type StatModel } from '../odds/distribution';
import { Calendar, type ScheduledGame } from './calendar';
import { FAMOUS, HANDLE_PARTS, SUFFIXES } from './names';
import { gammaDraw, gaussian, normal, pick, stream } from './random';
import { DISPERSION, SIM_SPORTS, type SimSport, type Slot } from './sports';

const MIN = 60_000;
/** The backfill replays this much of the day before now (lines up longer show from its start). */
export const BACKFILL_SPAN_MS = 12 * 60 * MIN;
/** Final games stay on Underdog's board this long. */
export const FINAL_KEEP_MS = 30 * MIN;
/** Minutes before the start at which a pre-game line may move: ever closer together near it. */
const CHECKPOINTS_MIN = [5760, 4320, 2880, 2160, 1440, 1080, 720, 480, 360, 240, 180, 120, 90, 60, 45, 30, 20, 10, 5];
/** How many of a team's latest games make a player's recent form (as propsfeed's projection reads). */
const RECENT_GAMES = 10;
const WEEK_MS = 7 * 24 * 60 * MIN;
/** Underdog's margin: both sides' implied chances sum to this (-110 / -110). */
const OVERROUND = 1.0476;
/** A recent game's weight in the books' read of form, relative to the next newer one. */
const FORM_DECAY = 0.8;
/** The books' read is off by this share of itself, beside the noise of recent form. */
const READ_NOISE = 0.03;
/** Underdog prices over chances within these (its own, before the margin); beyond, it shows payouts only. */
const PRICED_RANGE = [0.05, 0.95] as const;
/** How far a book shades its price off its read between line moves (never further). */
const MAX_LEAN = 0.02;

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
  /** When the books post its lines (see `opening`). */
  openMs: number;
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

/** A stat's distribution for one player: the model prices come from, its mean, a line step. */
interface StatSpread {
  mean: number;
  variance: number;
  step: number;
}

/** How far a line moves: whole points (PrizePicks keeps its half points), three on yardage-sized stats. */
function stepOf(mean: number): number {
  return mean >= 60 ? 3 : 1;
}

/** A line for a mean: the half point below it. */
function lineFor(mean: number): number {
  return Math.max(0.5, Math.floor(mean) + 0.5);
}

/** The book's opening line: the half point nearest an even chance under its read of the player. */
function openingLine(model: StatModel): number {
  const below = lineFor(model.mean);
  let best = below;
  for (const line of [below - 1, below + 1]) {
    if (line < 0.5) continue;
    if (Math.abs(overChance(model, line) - 0.5) < Math.abs(overChance(model, best) - 0.5)) best = line;
  }
  return best;
}

/** A count (Poisson or negative binomial) below COUNT_MEAN_LIMIT, else a continuity-corrected normal. */
function modelOf(mean: number, variance: number): StatModel {
  if (mean < COUNT_MEAN_LIMIT) {
    if (variance <= mean * 1.0001) return { kind: 'poisson', mean: Math.max(mean, 1e-6) };
    return { kind: 'negbin', mean, r: (mean * mean) / (variance - mean) };
  }
  return { kind: 'normal', mean, sd: Math.sqrt(variance), integer: true };
}

/** P(over | no push) at `line`. */
function overChance(model: StatModel, line: number): number {
  const p = probabilitiesAt(model, line);
  return p.pOver / (p.pOver + p.pUnder);
}

/** How far players' means of a stat spread about their role's: sd of factor U(0.75, 1.25) × U(0.9, 1.1). */
const ROLE_SPREAD = Math.sqrt((1 + 0.5 ** 2 / 12) * (1 + 0.2 ** 2 / 12) - 1);

/**
 * A book's read of a player's mean and how unsure it is. Its signal is a quarter his mean,
 * three quarters his recent form (the FORM_DECAY-weighted mean of `games` values), off by
 * READ_NOISE of itself; the book weighs it against what players of the role average
 * (`roleMean`, spread ROLE_SPREAD), as a normal prior and measurement would: a thin or noisy
 * form moves it less. So the read is what the signal says of the mean on average, and the
 * book's prices, taken with the read's uncertainty, are calibrated.
 */
export function bookRead(
  signal: number,
  roleMean: number,
  variance: number,
  games: number,
): { mean: number; variance: number } {
  let sum = 0;
  let squares = 0;
  for (let i = 0, w = 1; i < games; i++, w *= FORM_DECAY) {
    sum += w;
    squares += w * w;
  }
  const noise = (games > 0 ? 0.75 ** 2 * ((variance * squares) / (sum * sum)) : 0) + (READ_NOISE * signal) ** 2;
  const prior = (ROLE_SPREAD * roleMean) ** 2;
  if (!(prior > 0)) return { mean: signal, variance: noise };
  const weight = prior / (prior + noise);
  return { mean: roleMean + weight * (signal - roleMean), variance: weight * noise };
}

function clampLean(lean: number): number {
  return Math.max(-MAX_LEAN, Math.min(MAX_LEAN, lean));
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
  private readonly calendars = new Map<SportId, Calendar>();
  private readonly games = new Map<string, SimGame>();
  /** Final base stats per game and player: drawn once, read by every later step and by the game logs. */
  private readonly finals = new Map<SimGame, Map<SimPlayer, Map<string, number>>>();
  private readonly spreads = new WeakMap<SimPlayer, Map<string, StatSpread>>();
  /** In-game paths per game, `player.id|base` → the value at each step (drawn when first asked, kept like finals). */
  private readonly paths = new Map<SimGame, Map<string, Int32Array>>();
  private readonly recent = new Map<string, SimGame[]>();
  /** Both books render the same moment: props of the last time asked are kept for the second. */
  private propsMemo: { t: number; byGame: Map<SimGame, SimProp[]> } = { t: Number.NaN, byGame: new Map() };
  /**
   * Before the start a game's props change only at checkpoints, and after the end never: they
   * are kept per game with the checkpoint they stand at (-1 once final), so a poll or a replay
   * step recomputes only the live games and those a checkpoint has just passed.
   */
  private readonly settled = new Map<SimGame, { at: number; props: SimProp[] }>();

  constructor(readonly seed: number) {}

  sport(id: SportId): SimSport {
    return SIM_SPORTS.find((s) => s.id === id) as SimSport;
  }

  roster(sport: SimSport, team: string): SimPlayer[] {
    if (!this.rosters.has(`${sport.id}|${team}`)) this.makeRosters(sport);
    return this.rosters.get(`${sport.id}|${team}`) ?? [];
  }

  /** Every team's players of a sport at once, so no two players of a sport share a name. */
  private makeRosters(sport: SimSport): void {
    const taken = new Set<string>();
    sport.teams.forEach((team, t) => {
      const players = sport.slots.map((slot, i) => {
        const r = stream(this.seed, 'player', sport.id, team, i);
        const factor = 0.75 + r() * 0.5;
        const means: Record<string, number> = {};
        // One level per player, and each stat a little its own (a shooter, a rebounder).
        for (const [stat, m] of Object.entries(slot.means)) means[stat] = m * factor * (0.9 + r() * 0.2);
        let name = '';
        for (let tries = 0; name === '' || taken.has(name) || FAMOUS.has(name); tries++) {
          if (sport.names === 'handles') name = pick(r(), HANDLE_PARTS) + pick(r(), HANDLE_PARTS);
          else {
            name = `${pick(r(), sport.names.first)} ${pick(r(), sport.names.last)}`;
            if (r() < sport.names.suffixRate) name += ` ${pick(r(), SUFFIXES)}`;
          }
          if (tries > 50) name += ` ${tries}`;
        }
        taken.add(name);
        return { id: `${sport.id}-${t}-${i}`, name, team, slot, means };
      });
      this.rosters.set(`${sport.id}|${team}`, players);
    });
  }

  private calendar(sport: SimSport): Calendar {
    let calendar = this.calendars.get(sport.id);
    if (!calendar) {
      calendar = new Calendar(this.seed, sport.id, sport.leagues);
      this.calendars.set(sport.id, calendar);
    }
    return calendar;
  }

  /** Games starting in [fromMs, toMs), in start order. */
  gamesStarting(sport: SimSport, fromMs: number, toMs: number): SimGame[] {
    const sportIndex = SIM_SPORTS.indexOf(sport);
    return this.calendar(sport)
      .gamesStarting(fromMs, toMs)
      .map((s) => {
        const key = `${sport.id}|${s.k}`;
        let game = this.games.get(key);
        if (!game) {
          const ppId = (sportIndex + 1) * 10_000_000 + s.k;
          game = {
            sport,
            k: s.k,
            ppId,
            udId: 700_000_000 + ppId,
            home: s.home,
            away: s.away,
            startMs: s.startMs,
            endMs: s.startMs + sport.durationMin * MIN,
            openMs: this.opening(sport, s),
          };
          if (this.games.size > 20_000) this.games.clear();
          this.games.set(key, game);
        }
        return game;
      });
  }

  /**
   * When a game's lines go up: `openBeforeMin` before the start, but not before both teams'
   * previous games have left the board (final plus FINAL_KEEP_MS), as the books post a team's
   * next game once its last one is over. So a board never lists a team twice.
   */
  private opening(sport: SimSport, game: ScheduledGame): number {
    const duration = sport.durationMin * MIN;
    let open = game.startMs - sport.openBeforeMin * MIN;
    for (const earlier of this.calendar(sport).gamesStarting(open - duration - FINAL_KEEP_MS, game.startMs)) {
      const shared = [earlier.home, earlier.away].some((team) => team === game.home || team === game.away);
      if (shared && earlier.k !== game.k) open = Math.max(open, earlier.startMs + duration + FINAL_KEEP_MS);
    }
    return open;
  }

  /** Games with lines up at `t`: from their opening until final (plus `keepFinalMs`, then gone). */
  gamesAt(sport: SimSport, t: number, keepFinalMs: number): SimGame[] {
    const from = t - sport.durationMin * MIN - keepFinalMs + 1;
    return this.gamesStarting(sport, from, t + sport.openBeforeMin * MIN).filter((g) => g.openMs <= t);
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

  /** The base stats a stat sums (a combo's parts, a component listed twice counted twice). */
  components(sport: SimSport, stat: string): readonly string[] {
    return sport.combos[stat] ?? [stat];
  }

  /** A player's spread of a stat: base stats' variance mean + d·mean², combos the sum of their parts'. */
  private spread(sport: SimSport, player: SimPlayer, stat: string): StatSpread {
    let ofPlayer = this.spreads.get(player);
    if (!ofPlayer) {
      ofPlayer = new Map();
      this.spreads.set(player, ofPlayer);
    }
    let s = ofPlayer.get(stat);
    if (!s) {
      let mean = 0;
      let variance = 0;
      const weights = new Map<string, number>();
      for (const c of this.components(sport, stat)) weights.set(c, (weights.get(c) ?? 0) + 1);
      for (const [c, w] of weights) {
        const m = player.means[c] ?? 0;
        mean += w * m;
        variance += w * w * (m + (sport.dispersion?.[c] ?? DISPERSION) * m * m);
      }
      s = { mean, variance, step: stepOf(mean) };
      ofPlayer.set(stat, s);
    }
    return s;
  }

  /** What players of his slot average in a stat (combos: the sum of their parts). */
  private roleMean(sport: SimSport, player: SimPlayer, stat: string): number {
    let m = 0;
    for (const c of this.components(sport, stat)) m += player.slot.means[c] ?? 0;
    return m;
  }

  /** The true distribution a base stat's final value is drawn from (finalBase): for the oracle, never the API. */
  baseModel(sport: SimSport, player: SimPlayer, base: string): StatModel {
    const { mean, variance } = this.spread(sport, player, base);
    return modelOf(mean, variance);
  }

  /** The share of a game played at `t` as its values show it: whole two-minute steps, 1 once final. */
  accrued(game: SimGame, t: number): number {
    return this.stepsPlayed(game, t) / this.steps(game);
  }

  mean(sport: SimSport, player: SimPlayer, stat: string): number {
    return this.spread(sport, player, stat).mean;
  }

  /** The final value of a base stat for a player in a game: a draw from the player's distribution. */
  finalBase(game: SimGame, player: SimPlayer, base: string): number {
    let ofGame = this.finals.get(game);
    if (!ofGame) {
      if (this.finals.size > 5_000) this.finals.clear();
      ofGame = new Map();
      this.finals.set(game, ofGame);
    }
    let ofPlayer = ofGame.get(player);
    if (!ofPlayer) {
      ofPlayer = new Map();
      ofGame.set(player, ofPlayer);
    }
    let v = ofPlayer.get(base);
    if (v === undefined) {
      const { mean, variance } = this.spread(game.sport, player, base);
      const r = stream(this.seed, 'final', `${game.sport.id}|${game.k}|${player.id}|${base}`);
      const model = modelOf(mean, variance);
      v = model.kind === 'normal' ? Math.max(0, Math.round(mean + normal(r) * model.sd)) : countQuantile(model, r());
      ofPlayer.set(base, v);
    }
    return v;
  }

  /** A team's last RECENT_GAMES games that ended by `beforeMs`, newest first. */
  private recentGames(sport: SimSport, team: string, beforeMs: number): SimGame[] {
    const key = `${sport.id}|${team}|${beforeMs}`;
    let games = this.recent.get(key);
    if (!games) {
      games = [];
      let to = beforeMs - sport.durationMin * MIN;
      for (let week = 0; week < 30 && games.length < RECENT_GAMES; week++, to -= WEEK_MS) {
        for (const g of this.gamesStarting(sport, to - WEEK_MS, to).reverse()) {
          if ((g.home === team || g.away === team) && games.length < RECENT_GAMES) games.push(g);
        }
      }
      if (this.recent.size > 10_000) this.recent.clear();
      this.recent.set(key, games);
    }
    return games;
  }

  /** A player's recent form in a stat: the mean of his final values, each game FORM_DECAY× the next newer one. */
  private form(recent: readonly SimGame[], player: SimPlayer, stat: string): number {
    let sum = 0;
    let weights = 0;
    let w = 1;
    for (const g of recent) {
      sum += w * this.value(g, player, stat, g.endMs);
      weights += w;
      w *= FORM_DECAY;
    }
    return sum / weights;
  }

  /** A game's two-minute steps: values change only at their boundaries. */
  steps(game: SimGame): number {
    return Math.max(1, Math.round((game.endMs - game.startMs) / (2 * MIN)));
  }

  /** The steps of `game` played by `t` (0 before the start, all of them at the end). */
  stepsPlayed(game: SimGame, t: number): number {
    const steps = this.steps(game);
    if (t >= game.endMs) return steps;
    if (t <= game.startMs) return 0;
    return Math.floor(((t - game.startMs) / (game.endMs - game.startMs)) * steps);
  }

  /** The value of a stat at time t: each base stat's final value, accrued along its path in two-minute steps. */
  value(game: SimGame, player: SimPlayer, stat: string, t: number): number {
    let v = 0;
    if (t >= game.endMs) {
      for (const c of this.components(game.sport, stat)) v += this.finalBase(game, player, c);
      return v;
    }
    const k = this.stepsPlayed(game, t);
    for (const c of this.components(game.sport, stat)) v += this.path(game, player, c)[k] as number;
    return v;
  }

  /**
   * A base stat's value after each step of a game, ending at its final value. The final is
   * spread over the steps as independent increments would spread it: a Poisson's events
   * uniformly (each step's count Poisson(mean / steps)); an over-dispersed stat's by weights
   * drawn from Dirichlet(r / steps, …), its negative binomial's r (each step's count then
   * NB(r / steps) with the same p). So what is left to play, given the value so far, is the
   * player's distribution over the share of the game left, whatever has happened.
   */
  private path(game: SimGame, player: SimPlayer, base: string): Int32Array {
    let ofGame = this.paths.get(game);
    if (!ofGame) {
      if (this.paths.size > 5_000) this.paths.clear();
      ofGame = new Map();
      this.paths.set(game, ofGame);
    }
    const key = `${player.id}|${base}`;
    let path = ofGame.get(key);
    if (!path) {
      const steps = this.steps(game);
      const final = this.finalBase(game, player, base);
      const { mean, variance } = this.spread(game.sport, player, base);
      const r = stream(this.seed, 'path', `${game.sport.id}|${game.k}|${key}`);
      const cumulative = new Float64Array(steps);
      let total = 0;
      const shape = variance > mean * 1.0001 ? mean ** 2 / (variance - mean) / steps : 0;
      for (let i = 0; i < steps; i++) {
        total += final > 0 && shape > 0 ? gammaDraw(r, shape) : 1;
        cumulative[i] = total;
      }
      const counts = new Int32Array(steps);
      for (let e = 0; e < final; e++) {
        const u = r() * total;
        let low = 0;
        let high = steps - 1;
        while (low < high) {
          const mid = (low + high) >> 1;
          if ((cumulative[mid] as number) <= u) low = mid + 1;
          else high = mid;
        }
        counts[low] = (counts[low] as number) + 1;
      }
      path = new Int32Array(steps + 1);
      for (let i = 0; i < steps; i++) path[i + 1] = (path[i] as number) + (counts[i] as number);
      ofGame.set(key, path);
    }
    return path;
  }

  /** Every prop of a game as it stands at `t`, players home first, slot order, stat order. */
  props(game: SimGame, t: number): SimProp[] {
    const settledAt = t >= game.endMs ? -1 : t < game.startMs ? this.lastCheckpoint(game, t) : undefined;
    if (settledAt !== undefined) {
      const kept = this.settled.get(game);
      if (kept && kept.at === settledAt) return kept.props;
      const props = this.computeProps(game, t);
      if (this.settled.size > 5_000) this.settled.clear();
      this.settled.set(game, { at: settledAt, props });
      return props;
    }
    if (this.propsMemo.t !== t) this.propsMemo = { t, byGame: new Map() };
    let props = this.propsMemo.byGame.get(game);
    if (!props) {
      props = this.computeProps(game, t);
      this.propsMemo.byGame.set(game, props);
    }
    return props;
  }

  /** When a game's lines last changed as of `t`: its last checkpoint before the start, `t` while live, the end after. */
  linesUpdatedAt(game: SimGame, t: number): number {
    if (t >= game.endMs) return game.endMs;
    return t < game.startMs ? this.lastCheckpoint(game, t) : t;
  }

  /** The time of the last checkpoint at or before `t` since the lines went up (their opening if none). */
  private lastCheckpoint(game: SimGame, t: number): number {
    let last = game.openMs;
    for (const before of CHECKPOINTS_MIN) {
      const at = game.startMs - before * MIN;
      if (at > t) break;
      if (at >= game.openMs) last = at;
    }
    return last;
  }

  private computeProps(game: SimGame, t: number): SimProp[] {
    const { sport } = game;
    const state = this.live(game, t).state;
    // The share of the game left to play, in the steps values accrue by.
    const left = state === 'live' ? 1 - this.stepsPlayed(game, t) / this.steps(game) : 1;
    const out: SimProp[] = [];
    for (const team of [game.home, game.away]) {
      const recent = this.recentGames(sport, team, game.openMs);
      for (const player of this.roster(sport, team)) {
        for (const stat of player.slot.posted) {
          const key = `${sport.id}|${game.k}|${player.id}|${stat}`;
          const { mean, variance, step } = this.spread(sport, player, stat);
          const r = stream(this.seed, 'line', key);
          const ppPosts = r() < 0.9;
          const udPosts = r() < 0.85;
          // Underdog's own line: on small counts often the whole number next to PrizePicks' half point.
          const off = mean < COUNT_MEAN_LIMIT ? 0.5 : step;
          const udOffset = pick(r(), [-off, 0, 0, 0, 0, 0, 0, 0, off, off]);
          const hasPrices = r() < 0.9;
          const oneSided = r() < 0.04;
          const alternates = r() < 0.2;
          // The books' read of this player for this game: mostly his recent form (weighted as
          // propsfeed's projection weighs the same games), a quarter his long-run mean, off by a few percent.
          const form = recent.length > 0 ? this.form(recent, player, stat) : mean;
          const signal = (0.25 * mean + 0.75 * form) * (1 + READ_NOISE * gaussian(r));
          const belief = bookRead(signal, this.roleMean(sport, player, stat), variance, recent.length);
          let read = belief.mean;
          // The book's belief about the final for a read `m` over a share of the game: the stat's
          // spread at that level over the share, widened by how far off its read may be.
          const modelAt = (m: number, share = 1) => {
            const spread = variance * (m / Math.max(mean, 1e-9)) ** 2;
            return modelOf(Math.max(m * share, 1e-6), spread * share + belief.variance * share * share);
          };
          let model = modelAt(read);
          let line = openingLine(model);
          let lean = clampLean(0.01 * gaussian(r));
          const moves = stream(this.seed, 'moves', key);
          for (const before of CHECKPOINTS_MIN) {
            const at = game.startMs - before * MIN;
            if (at < game.openMs) continue;
            if (at > t) break;
            const m = moves();
            const towards = moves() < 0.65;
            // Moves crowd towards the start: about 3 % a checkpoint a day out, 14 % in the last minutes.
            const pMove = 0.02 + 0.12 * (30 / (30 + before));
            if (m < pMove) {
              // The read moves (news, money; towards the player's mean more often than away), the line follows it.
              const up = mean > read === towards;
              read *= up ? 1.05 : 1 / 1.05;
              model = modelAt(read);
              line = openingLine(model);
              lean = 0;
            } else if (m < 3 * pMove) lean = clampLean(lean + (moves() - 0.5) * 0.02);
          }
          const prop: SimProp = { player, stat, udOneSided: oneSided };
          // Lines are priced on what is left to play: all of it before the start.
          let played = 0;
          if (state !== 'pre') {
            played = this.value(game, player, stat, t);
            prop.value = played;
            if (state === 'live') {
              // In-game: the value so far, plus the same read of the player over what is left.
              model = modelAt(read, left);
              line = played + openingLine(model);
              lean = 0;
            }
          }
          if (ppPosts && state !== 'final') {
            prop.ppLine = line;
            if (alternates && state === 'pre')
              prop.ppAlternates = { goblin: Math.max(0.5, line - 2 * step), demon: line + 2 * step };
          }
          if (udPosts) {
            // Never where Underdog's price would be lopsided.
            const offLine = Math.max(0.5, line + udOffset);
            const offBalanced = state === 'pre' && Math.abs(overChance(model, offLine) - 0.5) < 0.15;
            const udLine = offBalanced ? offLine : line;
            prop.udLine = udLine;
            const pOver = overChance(model, udLine - played) + lean;
            if (hasPrices && state !== 'final' && pOver >= PRICED_RANGE[0] && pOver <= PRICED_RANGE[1]) {
              prop.udOver = american(pOver * OVERROUND);
              prop.udUnder = american((1 - pOver) * OVERROUND);
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
