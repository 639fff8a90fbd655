/**
 * `pnpm bench:market`: how the simulated market's prices do against the simulator's results.
 * Over seeded days (default 14 days before 2026-11-22, every sport), each priced Underdog line
 * is de-vigged at the game's last pre-game moment (the lock) and, in-game, at each quarter of
 * the game, then settled by the final value the game logs record (settlement's resultOf) and
 * scored as the track record scores (odds/record.ts): calibration bins, Brier, log loss, ECE.
 * A book whose price is coherent with its own line scores each bin near its prediction.
 *
 *   pnpm bench:market [--days N] [--seed S] [--to YYYY-MM-DD]
 */
import { parseArgs } from 'node:util';
import { resultOf } from '../src/history/settlement';
import { devigMultiplicative } from '../src/odds/devig';
import { type Outcome, type ProbabilityScores, scoreProbabilities } from '../src/odds/record';
import { SIM_SPORTS, type SimGame, SimWorld } from '../src/sim/world';

const DAY_MS = 24 * 60 * 60_000;
/** In-game snapshots: these fractions of each game's span. */
const LIVE_POINTS = [0.25, 0.5, 0.75];

/** The priced Underdog lines of a game at `t`, settled by the game's final values. */
export function marketOutcomes(world: SimWorld, game: SimGame, t: number): Outcome[] {
  const out: Outcome[] = [];
  for (const prop of world.props(game, t)) {
    if (prop.udLine === undefined || prop.udOver === undefined || prop.udUnder === undefined || prop.udOneSided)
      continue;
    const result = resultOf(world.value(game, prop.player, prop.stat, game.endMs), prop.udLine);
    if (result === 'push') continue;
    out.push({ q: devigMultiplicative(prop.udOver, prop.udUnder).pOver, over: result === 'over' });
  }
  return out;
}

/** Pre-game (at lock) and in-game outcomes of every game starting in [fromMs, toMs). */
export function marketDays(world: SimWorld, fromMs: number, toMs: number): { lock: Outcome[]; live: Outcome[] } {
  const lock: Outcome[] = [];
  const live: Outcome[] = [];
  for (const sport of SIM_SPORTS) {
    for (const game of world.gamesStarting(sport, fromMs, toMs)) {
      for (const o of marketOutcomes(world, game, game.startMs - 1)) lock.push(o);
      for (const f of LIVE_POINTS) {
        const t = Math.round(game.startMs + f * (game.endMs - game.startMs));
        for (const o of marketOutcomes(world, game, t)) live.push(o);
      }
    }
  }
  return { lock, live };
}

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}`);

function print(title: string, s: ProbabilityScores): void {
  console.log(`\n${title}: ${s.count.toLocaleString('en-US')} settled priced lines`);
  console.log(`  Brier ${s.brier?.toFixed(4)}   log loss ${s.logLoss?.toFixed(4)}   ECE ${pct(s.ece)} points`);
  console.log('  bin        n   predicted  observed   gap  ±2 SE');
  for (const b of s.calibration) {
    if (b.count === 0 || b.predicted === null || b.observed === null) continue;
    const se = Math.sqrt((b.predicted * (1 - b.predicted)) / b.count);
    const bin = `${Math.round(b.from * 100)}–${Math.round(b.to * 100)} %`.padEnd(9);
    const gap = ((b.observed - b.predicted) * 100).toFixed(1);
    console.log(
      `  ${bin}${String(b.count).padStart(6)}   ${pct(b.predicted).padStart(8)}  ${pct(b.observed).padStart(8)}  ${gap.padStart(5)}  ${(2 * se * 100).toFixed(1).padStart(5)}`,
    );
  }
}

function main(): void {
  const { values } = parseArgs({
    options: {
      days: { type: 'string', default: '14' },
      seed: { type: 'string', default: '20261122' },
      to: { type: 'string', default: '2026-11-22' },
    },
  });
  const days = Number(values.days);
  const seed = Number(values.seed);
  const toMs = Date.parse(`${values.to}T00:00:00Z`);
  if (!Number.isInteger(days) || days < 1 || days > 365 || !Number.isInteger(seed) || Number.isNaN(toMs)) {
    console.error('usage: pnpm bench:market [--days 1..365] [--seed integer] [--to YYYY-MM-DD]');
    process.exit(2);
  }
  const fromMs = toMs - days * DAY_MS;
  const started = performance.now();
  const { lock, live } = marketDays(new SimWorld(seed), fromMs, toMs);
  console.log(
    `Simulated market, seed ${seed}, games starting ${new Date(fromMs).toISOString().slice(0, 10)} to ${values.to} (${days} days, every sport)`,
  );
  print("At lock (the last pre-game price, Underdog's two sides de-vigged)", scoreProbabilities(lock));
  print(
    `In-game (snapshots at ${LIVE_POINTS.map((f) => `${f * 100} %`).join(', ')} of each game)`,
    scoreProbabilities(live),
  );
  console.log(
    `\nA coin flip: Brier 0.2500, log loss 0.6931. Ran in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) main();
