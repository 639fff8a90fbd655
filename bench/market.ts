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
import { type ProbabilityScores, scoreProbabilities } from '@propsfeed/server/model';
import { SimWorld } from '@propsfeed/sim';
import { LIVE_POINTS, marketDays } from './marketDays';

const DAY_MS = 24 * 60 * 60_000;

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

main();
