/**
 * The simulated world: each sport's calendar (calendar.ts, sports.ts), rosters with stable
 * per-player means, lines that go up once both teams' previous games are over (at most a
 * sport's `openBeforeMin` before the start), are set and priced from each book's read of the
 * player, move at checkpoints that crowd towards the start, follow the score while live, and
 * final values drawn from the player's distribution. A book's read is a posterior mean: the
 * desk's read of everything public (desk.ts: his season's box scores and his role), its own
 * unbiased read of him (independent between the books) and the news taken at line moves, one
 * book first and the other minutes later. A game's values accrue in independent increments
 * (what is left to play does not depend on what has been played), and a book prices each line
 * by its own read: the over chance its read gives, with the read's own uncertainty in it, so
 * its de-vigged prices are calibrated. Everything is a pure function of (seed, time), so any
 * moment — now or hours ago, for the backfill — can be asked for, and tests can assert exact values.
 */
import type { GameState, SportId } from '@propsfeed/contract';
import { Calendar, type ScheduledGame } from './calendar';
import { BaseGames, type Belief, DeskPosterior } from './desk';
import { COUNT_LIMIT, drawCount, overShare, type TrueModel } from './distributions';
import { FAMOUS, HANDLE_PARTS, SUFFIXES } from './names';
import { gammaDraw, gaussian, keyPrefix, normal, pick, stream, streamAfter } from './random';
import { DISPERSION, SIM_SPORTS, type SimSport, type Slot } from './sports';

const MIN = 60_000;
/** The backfill replays this much of the day before now (lines up longer show from its start). */
export const BACKFILL_SPAN_MS = 12 * 60 * MIN;
/** Final games stay on Underdog's board this long. */
export const FINAL_KEEP_MS = 30 * MIN;
/** Minutes before the start at which a pre-game line may move: ever closer together near it. */
const CHECKPOINTS_MIN = [5760, 4320, 2880, 2160, 1440, 1080, 720, 480, 360, 240, 180, 120, 90, 60, 45, 30, 20, 10, 5];
const WEEK_MS = 7 * 24 * 60 * MIN;
/** The books' desk reads a player's last this many games (a season), within DESK_WEEKS. */
const DESK_GAMES = 82;
const DESK_WEEKS = 60;
/**
 * A player's game: his mean of every stat that night is his mean × a factor of that game and
 * player (minutes, role, matchup), lognormal with mean 1 and this sd of its log. No past game
 * tells it; the books read it their own ways and from news.
 */
const GAME_FACTOR = 0.1;
/** Each book's own read of a player's game factor (its scouts, its customers' money): the factor's log, off by this sd. */
const OWN_READ = GAME_FACTOR;
/** News at a line move (a lineup, minutes): the game factor's log, off by this sd. */
const NEWS_READ = 1.5 * GAME_FACTOR;
/** The book that follows a move takes it this many minutes after the one that leads. */
const FOLLOW_MIN = [2, 20] as const;
/** Underdog's margin: both sides' implied chances sum to this (-110 / -110). */
const OVERROUND = 1.0476;
/** Underdog prices over chances within these (its own, before the margin); beyond, it shows payouts only. */
const PRICED_RANGE = [0.05, 0.95] as const;
/** How far a book shades its price off its read between line moves (never further). */
const MAX_LEAN = 0.02;

export interface SimPlayer {
  id: string;
  name: string;
  team: string;
  slot: Slot;
  /** The slot's place in the sport's slots. */
  slotIndex: number;
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
  /** The distribution of a game's value (modelOf). */
  model: TrueModel;
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
function openingLine(model: TrueModel): number {
  const below = lineFor(model.mean);
  let best = below;
  for (const line of [below - 1, below + 1]) {
    if (line < 0.5) continue;
    if (Math.abs(overShare(model, line) - 0.5) < Math.abs(overShare(model, best) - 0.5)) best = line;
  }
  return best;
}

/** A count (Poisson or negative binomial) below COUNT_LIMIT, else a continuity-corrected normal. */
function modelOf(mean: number, variance: number): TrueModel {
  if (mean < COUNT_LIMIT) {
    if (variance <= mean * 1.0001) return { kind: 'poisson', mean: Math.max(mean, 1e-6) };
    return { kind: 'negbin', mean, r: (mean * mean) / (variance - mean) };
  }
  return { kind: 'normal', mean, sd: Math.sqrt(variance), integer: true };
}

/**
 * The dispersion of a player's games about his long-run mean: the stat's own, plus his game
 * factor's (E[f] = 1, E[f²] = e^(GAME_FACTOR²)): variance m + (d·E[f²] + Var f)·m².
 */
function deskDispersion(d: number): number {
  const f2 = Math.exp(GAME_FACTOR ** 2);
  return d * f2 + f2 - 1;
}

/** A normal belief of a mean updated by an unbiased signal of it with variance `noise`. */
function posterior(prior: Belief, signal: number, noise: number): Belief {
  const before = Math.max(prior.variance, 1e-12);
  const variance = 1 / (1 / before + 1 / noise);
  return { mean: variance * (prior.mean / before + signal / noise), variance };
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
  private readonly finals = new Map<SimGame, Float64Array>();
  /** Per game, the hash of its finals' keys so far (random.ts keyPrefix). */
  private readonly finalKeys = new WeakMap<SimGame, number>();
  /** Where a player's base stat sits in a game's finals: home team first, slot by slot, base by base. */
  private readonly layouts = new Map<SimSport, { bases: Map<string, number>; perTeam: number }>();
  private readonly spreads = new WeakMap<SimPlayer, Map<string, StatSpread>>();
  /** In-game paths per game, `player.id|base` → the value at each step (drawn when first asked, kept like finals). */
  private readonly paths = new Map<SimGame, Map<string, Int32Array>>();
  /** Per game (the calendar keeps one object per game), each team's desk posteriors: home, then away. */
  private readonly desks = new Map<SimGame, [Map<SimPlayer, DeskPosterior>?, Map<SimPlayer, DeskPosterior>?]>();
  /** Per team, its last season tally (seasonBox). */
  private readonly boxes = new Map<string, { season: SimGame[]; box: Map<SimPlayer, Map<string, BaseGames>> }>();
  private readonly followMemo = new WeakMap<SimGame, { ppLeads: boolean[]; lagMs: number[]; changes: number[] }>();
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
        // One level per player, and each stat a little its own (a shooter, a rebounder): sim/desk.ts's LEVEL and OWN.
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
        return { id: `${sport.id}-${t}-${i}`, name, team, slot, slotIndex: i, means };
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
      s = { mean, variance, step: stepOf(mean), model: modelOf(mean, variance) };
      ofPlayer.set(stat, s);
    }
    return s;
  }

  /**
   * The spread a book expects of a stat for a read `m` of its mean: the role's parts scaled to
   * `m`, each with variance mean + dispersion × mean² (what the world draws from, at the read).
   */
  private spreadAt(sport: SimSport, parts: ReadonlyMap<string, { weight: number; roleMean: number }>, m: number) {
    let roleMean = 0;
    for (const { weight, roleMean: rm } of parts.values()) roleMean += weight * rm;
    const k = roleMean > 0 ? m / roleMean : 0;
    let variance = 0;
    for (const [c, { weight, roleMean: rm }] of parts)
      variance += weight * weight * (k * rm + (sport.dispersion?.[c] ?? DISPERSION) * (k * rm) ** 2);
    return variance;
  }

  /** A player's factor of a game (GAME_FACTOR): his means that night are his means × it. */
  gameFactor(game: SimGame, player: SimPlayer): number {
    const { finals, layout } = this.finalsOf(game);
    const at = (player.team === game.home ? 0 : layout.perTeam) + player.slotIndex * (layout.bases.size + 1);
    let f = finals[at] as number;
    if (Number.isNaN(f)) {
      const z = normal(stream(this.seed, 'game factor', `${game.sport.id}|${game.k}|${player.id}`));
      f = Math.exp(GAME_FACTOR * z - GAME_FACTOR ** 2 / 2);
      finals[at] = f;
    }
    return f;
  }

  /** A game's finals (and game factors): home team first, slot by slot, each slot its factor then base by base. */
  private finalsOf(game: SimGame): { finals: Float64Array; layout: { bases: Map<string, number>; perTeam: number } } {
    const { sport } = game;
    let layout = this.layouts.get(sport);
    if (!layout) {
      const bases = new Map<string, number>();
      for (const slot of sport.slots)
        for (const b of Object.keys(slot.means)) if (!bases.has(b)) bases.set(b, bases.size);
      layout = { bases, perTeam: sport.slots.length * (bases.size + 1) };
      this.layouts.set(sport, layout);
    }
    let finals = this.finals.get(game);
    if (!finals) {
      if (this.finals.size > 20_000) this.finals.clear();
      finals = new Float64Array(2 * layout.perTeam).fill(Number.NaN);
      this.finals.set(game, finals);
    }
    return { finals, layout };
  }

  /**
   * The true distribution a base stat's value in a game is drawn from (finalBase): his mean ×
   * his game factor, variance mean + dispersion × mean². For the oracle, never the API.
   */
  baseModel(game: SimGame, player: SimPlayer, base: string): TrueModel {
    const mean = this.spread(game.sport, player, base).mean * this.gameFactor(game, player);
    return modelOf(mean, mean + (game.sport.dispersion?.[base] ?? DISPERSION) * mean * mean);
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
    const { sport } = game;
    const { finals: ofGame, layout } = this.finalsOf(game);
    const b = layout.bases.get(base);
    const at =
      b === undefined
        ? -1
        : (player.team === game.home ? 0 : layout.perTeam) + player.slotIndex * (layout.bases.size + 1) + 1 + b;
    let v = at >= 0 ? (ofGame[at] as number) : Number.NaN;
    if (Number.isNaN(v)) {
      const model = this.baseModel(game, player, base);
      let prefix = this.finalKeys.get(game);
      if (prefix === undefined) {
        prefix = keyPrefix(this.seed, ['final'], `${sport.id}|${game.k}|`);
        this.finalKeys.set(game, prefix);
      }
      const r = streamAfter(prefix, player.id, '|', base);
      v = model.kind === 'normal' ? Math.max(0, Math.round(model.mean + normal(r) * model.sd)) : drawCount(model, r());
      if (at >= 0) ofGame[at] = v;
    }
    return v;
  }

  /** A team's last DESK_GAMES games that ended by `beforeMs` (within DESK_WEEKS), newest first. */
  private seasonGames(sport: SimSport, team: string, beforeMs: number): SimGame[] {
    const games: SimGame[] = [];
    let to = beforeMs - sport.durationMin * MIN;
    for (let week = 0; week < DESK_WEEKS && games.length < DESK_GAMES; week++, to -= WEEK_MS) {
      for (const g of this.gamesStarting(sport, to - WEEK_MS, to).reverse()) {
        if ((g.home === team || g.away === team) && games.length < DESK_GAMES) games.push(g);
      }
    }
    return games;
  }

  /**
   * The desk's posterior of each player of a team for a game (sim/desk.ts): every base stat of
   * his games that ended before the lines went up, and his role. Kept per game: the books read
   * it once, when they post the game.
   */
  private desk(game: SimGame, team: string): Map<SimPlayer, DeskPosterior> {
    // Asked for every base stat of every player of a live game at each poll: no key to build.
    let pair = this.desks.get(game);
    if (!pair) {
      if (this.desks.size > 2_500) this.desks.clear();
      pair = [];
      this.desks.set(game, pair);
    }
    const side = team === game.home ? 0 : 1;
    let byPlayer = pair[side];
    if (!byPlayer) {
      const box = this.seasonBox(game.sport, team, this.seasonGames(game.sport, team, game.openMs));
      byPlayer = new Map([...box].map(([player, games]) => [player, new DeskPosterior(games)]));
      pair[side] = byPlayer;
    }
    return byPlayer;
  }

  /**
   * Each player's tally of every base stat over `season` (a team's games, newest first). The
   * team's last tally slides on by a game where it can (a game added, the oldest dropped):
   * whole-number tallies, so the same as counting afresh.
   */
  private seasonBox(sport: SimSport, team: string, season: SimGame[]): Map<SimPlayer, Map<string, BaseGames>> {
    const key = `${sport.id}|${team}`;
    const last = this.boxes.get(key);
    const tally = (games: readonly SimGame[], box: Map<SimPlayer, Map<string, BaseGames>>, times: number) => {
      for (const [player, bases] of box)
        for (const [base, g] of bases) for (const game of games) g.add(this.finalBase(game, player, base), times);
    };
    if (last && last.season.length === season.length && season.length > 1) {
      const same = season.every((g, i) => g === last.season[i]);
      const shifted = !same && season.every((g, i) => i === 0 || g === last.season[i - 1]);
      if (same) return last.box;
      if (shifted) {
        const box = new Map([...last.box].map(([p, bases]) => [p, new Map([...bases].map(([b, g]) => [b, g.copy()]))]));
        tally([season[0] as SimGame], box, 1);
        tally([last.season[season.length - 1] as SimGame], box, -1);
        this.boxes.set(key, { season, box });
        return box;
      }
    }
    const box = new Map<SimPlayer, Map<string, BaseGames>>();
    for (const player of this.roster(sport, team)) {
      const bases = new Map<string, BaseGames>();
      for (const [base, roleMean] of Object.entries(player.slot.means))
        bases.set(base, new BaseGames(roleMean, deskDispersion(sport.dispersion?.[base] ?? DISPERSION)));
      box.set(player, bases);
    }
    tally(season, box, 1);
    this.boxes.set(key, { season, box });
    return box;
  }

  /**
   * The desk's read of a player's mean of a stat for a game (desk.ts): the posterior every
   * book's read starts from. For the project's own tools and tests, never the API.
   */
  deskRead(game: SimGame, player: SimPlayer, stat: string): Belief {
    const desk = this.desk(game, player.team).get(player);
    if (!desk) throw new Error(`${player.name} does not play in game ${game.k}`);
    return desk.read(stat, () => this.parts(game.sport, player, stat));
  }

  /** A stat's base stats, each with how many times it counts and its role mean. */
  private parts(sport: SimSport, player: SimPlayer, stat: string): Map<string, { weight: number; roleMean: number }> {
    const parts = new Map<string, { weight: number; roleMean: number }>();
    for (const c of this.components(sport, stat)) {
      const roleMean = player.slot.means[c] ?? 0;
      if (roleMean > 0) parts.set(c, { weight: (parts.get(c)?.weight ?? 0) + 1, roleMean });
    }
    return parts;
  }

  /**
   * Per game, per checkpoint: which book takes a move first and when the other follows. The
   * times lines may change before the start: each checkpoint, and each follow before the start.
   */
  private follows(game: SimGame): { ppLeads: boolean[]; lagMs: number[]; changes: number[] } {
    let f = this.followMemo.get(game);
    if (!f) {
      const r = stream(this.seed, 'follow', `${game.sport.id}|${game.k}`);
      const ppLeads: boolean[] = [];
      const lagMs: number[] = [];
      const changes = new Set<number>();
      for (const before of CHECKPOINTS_MIN) {
        ppLeads.push(r() < 0.5);
        const lag = Math.round(FOLLOW_MIN[0] + r() * (FOLLOW_MIN[1] - FOLLOW_MIN[0])) * MIN;
        lagMs.push(lag);
        const at = game.startMs - before * MIN;
        if (at < game.openMs) continue;
        changes.add(at);
        if (at + lag < game.startMs) changes.add(at + lag);
      }
      f = { ppLeads, lagMs, changes: [...changes].sort((a, b) => a - b) };
      this.followMemo.set(game, f);
    }
    return f;
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
      const model = this.baseModel(game, player, base);
      const mean = model.mean;
      const variance =
        model.kind === 'normal' ? model.sd ** 2 : model.kind === 'negbin' ? mean + mean ** 2 / model.r : mean;
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

  /** The last time at or before `t` the game's pre-game lines may have changed (their opening if none). */
  private lastCheckpoint(game: SimGame, t: number): number {
    let last = game.openMs;
    for (const at of this.follows(game).changes) {
      if (at > t) break;
      last = at;
    }
    return last;
  }

  /**
   * Each book's belief (normal) of the log of a player's game factor at `t`, PrizePicks' then
   * Underdog's: the prior, its own read, and the news it has taken (one book at the checkpoint,
   * the other `lagMs` later); and when Underdog last took news (its shading restarts there).
   */
  private factorReads(game: SimGame, player: SimPlayer, t: number): { books: [Belief, Belief]; udNewsAt: number } {
    const key = `${game.sport.id}|${game.k}|${player.id}`;
    const truth = Math.log(this.gameFactor(game, player));
    const prior: Belief = { mean: -(GAME_FACTOR ** 2) / 2, variance: GAME_FACTOR ** 2 };
    const own = stream(this.seed, 'own read', key);
    const books = [0, 1].map(() => posterior(prior, truth + OWN_READ * normal(own), OWN_READ ** 2)) as [Belief, Belief];
    const follows = this.follows(game);
    const news = stream(this.seed, 'news', key);
    let udNewsAt = Number.NEGATIVE_INFINITY;
    CHECKPOINTS_MIN.forEach((before, c) => {
      const at = game.startMs - before * MIN;
      if (at < game.openMs || at > t) return;
      const m = news();
      const signal = truth + NEWS_READ * normal(news);
      // Moves crowd towards the start: about 3 % a checkpoint a day out, 14 % in the last minutes.
      if (m >= 0.02 + 0.12 * (30 / (30 + before))) return;
      const lag = follows.lagMs[c] as number;
      const [ppAt, udAt] = follows.ppLeads[c] ? [at, at + lag] : [at + lag, at];
      if (ppAt <= t) books[0] = posterior(books[0], signal, NEWS_READ ** 2);
      if (udAt <= t) {
        books[1] = posterior(books[1], signal, NEWS_READ ** 2);
        udNewsAt = Math.max(udNewsAt, udAt);
      }
    });
    return { books, udNewsAt };
  }

  /**
   * A book's belief of a player's game factor's log updated by his game so far: the belief as
   * a gamma of the same mean and variance, every base stat's count so far as Poisson evidence
   * of the factor × the desk's mean × the share played (over-dispersed counts worth less), and
   * back to a lognormal.
   */
  private liveFactor(game: SimGame, player: SimPlayer, t: number, belief: Belief): Belief {
    const played = this.stepsPlayed(game, t) / this.steps(game);
    const mean = Math.exp(belief.mean + belief.variance / 2);
    const variance = (Math.exp(belief.variance) - 1) * mean * mean;
    let shape = (mean * mean) / variance;
    let rate = mean / variance;
    const { sport } = game;
    for (const base of Object.keys(player.slot.means)) {
      const expected = this.deskRead(game, player, base).mean * played;
      if (!(expected > 0)) continue;
      // A count with variance μ + d·μ² tells as much as a Poisson count 1 + d·μ times smaller.
      const worth = 1 / (1 + (sport.dispersion?.[base] ?? DISPERSION) * expected);
      shape += worth * this.value(game, player, base, t);
      rate += worth * expected;
    }
    const m = shape / rate;
    const v = shape / rate ** 2;
    const logVariance = Math.log1p(v / (m * m));
    return { mean: Math.log(m) - logVariance / 2, variance: logVariance };
  }

  private computeProps(game: SimGame, t: number): SimProp[] {
    const { sport } = game;
    const state = this.live(game, t).state;
    // The share of the game left to play, in the steps values accrue by.
    const left = state === 'live' ? 1 - this.stepsPlayed(game, t) / this.steps(game) : 1;
    const out: SimProp[] = [];
    for (const team of [game.home, game.away]) {
      for (const player of this.roster(sport, team)) {
        const factors = this.factorReads(game, player, t);
        if (state === 'live')
          factors.books = factors.books.map((f) => this.liveFactor(game, player, t, f)) as typeof factors.books;
        for (const stat of player.slot.posted) {
          const key = `${sport.id}|${game.k}|${player.id}|${stat}`;
          const { mean, step } = this.spread(sport, player, stat);
          const parts = this.parts(sport, player, stat);
          const r = stream(this.seed, 'line', key);
          const ppPosts = r() < 0.9;
          const udPosts = r() < 0.85;
          // Underdog's own line: on small counts often the whole number next to PrizePicks' half point.
          const off = mean < COUNT_LIMIT ? 0.5 : step;
          const udOffset = pick(r(), [-off, 0, 0, 0, 0, 0, 0, 0, off, off]);
          const hasPrices = r() < 0.9;
          const oneSided = r() < 0.04;
          const alternates = r() < 0.2;
          // Each book's read of his mean tonight: the desk's read of his mean from everything
          // public × its belief of his game factor (lognormal): a posterior mean and variance.
          const desk = this.deskRead(game, player, stat);
          const books = factors.books.map((f) => {
            const factor = Math.exp(f.mean + f.variance / 2);
            const factor2 = Math.exp(2 * f.mean + 2 * f.variance);
            const mean = desk.mean * factor;
            return { mean, variance: Math.max(0, (desk.variance + desk.mean ** 2) * factor2 - mean * mean) };
          }) as [Belief, Belief];
          // The book's belief about the final for a read over a share of the game: the stat's
          // spread at that read over the share, widened by how unsure the read is.
          const modelAt = (read: Belief, share = 1) => {
            const m = Math.max(read.mean, 1e-6);
            return modelOf(m * share, this.spreadAt(sport, parts, m) * share + read.variance * share * share);
          };
          // Underdog shades its price off its read between the news it takes, within MAX_LEAN.
          const opening = clampLean(0.01 * gaussian(r));
          let lean = Number.isFinite(factors.udNewsAt) ? 0 : opening;
          const moves = stream(this.seed, 'moves', key);
          for (const before of CHECKPOINTS_MIN) {
            const at = game.startMs - before * MIN;
            if (at < game.openMs || at > t) continue;
            const m = moves();
            const shade = moves();
            const pShade = 2 * (0.02 + 0.12 * (30 / (30 + before)));
            if (at > factors.udNewsAt && m < pShade) lean = clampLean(lean + (shade - 0.5) * 0.02);
          }
          const [ppRead, udRead] = books;
          let ppModel = modelAt(ppRead);
          let udModel = modelAt(udRead);
          let ppLine = openingLine(ppModel);
          let udBase = openingLine(udModel);
          const prop: SimProp = { player, stat, udOneSided: oneSided };
          // Lines are priced on what is left to play: all of it before the start.
          let played = 0;
          if (state !== 'pre') {
            played = this.value(game, player, stat, t);
            prop.value = played;
            if (state === 'live') {
              // In-game: the value so far, plus each book's read of the player over what is left.
              ppModel = modelAt(ppRead, left);
              udModel = modelAt(udRead, left);
              ppLine = played + openingLine(ppModel);
              udBase = played + openingLine(udModel);
              lean = 0;
            }
          }
          if (ppPosts && state !== 'final') {
            prop.ppLine = ppLine;
            if (alternates && state === 'pre')
              prop.ppAlternates = { goblin: Math.max(0.5, ppLine - 2 * step), demon: ppLine + 2 * step };
          }
          if (udPosts) {
            // Never where Underdog's price would be lopsided.
            const offLine = Math.max(0.5, udBase + udOffset);
            const offBalanced = state === 'pre' && Math.abs(overShare(udModel, offLine) - 0.5) < 0.15;
            const udLine = offBalanced ? offLine : udBase;
            prop.udLine = udLine;
            const pOver = overShare(udModel, udLine - played) + lean;
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
