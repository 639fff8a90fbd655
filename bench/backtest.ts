/**
 * Backtest: N seeded days of the simulated world through the pipeline `props serve` runs —
 * the books' wire formats, the adapters, the merge, the lock of each game's props at its
 * start (with the chances the service publishes) and settlement by the recorded finals —
 * scored against the market (the priced book's de-vigged price on the same props) and the
 * oracle (the simulator's truth, sim/oracle.ts). Live props are snapshotted at the start of
 * each period and settled the same way. A benchmark, not a test: it prints, it asserts nothing.
 *
 * Run: `pnpm backtest [--days 14] [--seed 20261122] [--from 2026-11-01] [--step 60] [--rows FILE]`; on real lines
 * and results, `pnpm backtest --real DIR [--fit-until YYYY-MM-DD]` (backtest/real.ts, docs/edges.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Book, SportId } from '@propsfeed/contract';
import type { Board, BoardGame, BoardProp, BookQuote } from '@propsfeed/server';
import { playerKey } from '@propsfeed/server/books';
import { backfill, FeedCore, pastGameLogs, SILENT_LOGGER } from '@propsfeed/server/feed';
import {
  createGameLogStore,
  createSettlementStore,
  type GameLog,
  type GameLogStore,
  resultOf,
  type SettledLock,
} from '@propsfeed/server/history';
import {
  COEFFICIENTS,
  devigMultiplicative,
  dispersionOf,
  EntryBook,
  fitCoefficients,
  fitLiveScale,
  liveFairProbabilities,
  type PlayerInput,
  playedShareAt,
  playerInputBefore,
  readsOf,
  type Sample,
  seasonMean,
} from '@propsfeed/server/model';
import { openDb } from '@propsfeed/server/store';
import { oracle, SIM_SPORTS, type SimGame, type SimPlayer, SimWorld } from '@propsfeed/sim';
import { type BookRead, bookReads, Consensus, chanceAt } from './backtest/books';
import { runRealBacktest } from './backtest/real';
import { type EdgeRow, edges, type Forecast, type Scores, score, scoreLine, withheldWhy } from './backtest/score';

// Real lines and results (backtest/real.ts): a run of its own, never the simulator's.
if (process.argv.includes('--real')) process.exit(runRealBacktest(process.argv));

const DAY = 86_400_000;
const MIN = 60_000;

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : fallback;
}

const days = Number(option('days', '14'));
const seed = Number(option('seed', '20261122'));
const fromDay = option('from', '2026-11-01');
const stepMin = Number(option('step', '60'));
if (!(days > 0 && days <= 60) || !Number.isInteger(seed) || !/^\d{4}-\d{2}-\d{2}$/.test(fromDay) || !(stepMin >= 1)) {
  console.error('usage: pnpm backtest [--days 1..60] [--seed N] [--from YYYY-MM-DD] [--step minutes]');
  process.exit(2);
}
const start = Date.parse(`${fromDay}T00:00:00Z`);
const end = start + days * DAY;

/** One settled probability: ours, the market's and the oracle's on the same prop and line. */
interface Row {
  sport: SportId;
  book: Book;
  date: string;
  basis: string;
  ours: number | null;
  market: number | null;
  oracle: number;
  over: boolean;
  /** Pre-game only: each book alone, their consensus and the logs alone (bench/backtest/books.ts). */
  yardsticks?: Yardsticks;
}

interface Yardsticks {
  prizepicks: number | null;
  underdog: number | null;
  consensus: number | null;
  logsOnly: number | null;
}

const world = new SimWorld(seed);
const simGames = new Map<string, SimGame>();
const simPlayers = new Map<string, SimPlayer>();
for (const sport of SIM_SPORTS) {
  for (const g of world.gamesStarting(sport, start - 2 * DAY, end + 2 * DAY)) {
    simGames.set(`pp_${g.ppId}`, g);
    simGames.set(`ud_${g.udId}`, g);
  }
  for (const team of sport.teams)
    for (const p of world.roster(sport, team)) simPlayers.set(`${sport.id}|${playerKey(p.name, team)}`, p);
}

/** The priced book's de-vigged P(over | no push) at `line`: the market, where a book prices that line. */
function marketAt(prop: BoardProp, line: number): number | null {
  const priced = prop.books.find((b) => b.overOdds !== undefined && b.underOdds !== undefined);
  if (!priced || priced.line !== line || priced.overOdds === undefined || priced.underOdds === undefined) return null;
  return devigMultiplicative(priced.overOdds, priced.underOdds).pOver;
}

const noPush = (p: { pOver: number; pUnder: number }) => p.pOver / (p.pOver + p.pUnder);

const closing = new Map<string, BoardProp>();
const lastPre = new Map<string, BoardGame>();
const liveRows: (Omit<Row, 'over'> & {
  game: SimGame;
  player: SimPlayer;
  stat: string;
  line: number;
  period: string;
  gameId: string;
  playerKey: string;
  quotes: BookQuote[];
  soFar: number;
  played: number | undefined;
})[] = [];
const snapped = new Map<string, string>();

function onStep(t: number, board: Board): void {
  for (const g of board.games) {
    if (g.state === 'pre') {
      lastPre.set(g.id, g);
      continue;
    }
    const pre = lastPre.get(g.id);
    if (pre) {
      lastPre.delete(g.id);
      for (const p of pre.props) closing.set(`${g.id}|${p.playerKey}|${p.stat}`, p);
    }
    if (g.state !== 'live') continue;
    const period =
      g.clock?.split(' ')[0] ??
      String(Math.floor(((t - g.startMs) / (world.sport(g.sport).durationMin * MIN)) * 4) + 1);
    if (snapped.get(g.id) === period) continue;
    snapped.set(g.id, period);
    const game = simGames.get(g.id);
    if (!game) continue;
    for (const prop of g.props) {
      const player = simPlayers.get(`${g.sport}|${prop.playerKey}`);
      if (!player) continue;
      for (const q of prop.books) {
        liveRows.push({
          sport: g.sport,
          book: q.source,
          date: g.startTime.slice(0, 10),
          basis: 'live',
          ours: null,
          market: marketAt(prop, q.line),
          oracle: noPush(oracle(world, game, player, prop.stat, q.line, t)),
          game,
          player,
          stat: prop.stat,
          line: q.line,
          period,
          gameId: g.id,
          playerKey: prop.playerKey,
          quotes: prop.books,
          soFar: prop.liveValue ?? Number.NaN,
          played: playedShareAt(g.sport, g.clock, g.startMs, t),
        });
      }
    }
  }
}

/**
 * The moments that decide the score: a coarse grid (lines opening and moving), and per game
 * the board just before its start (the closing lines), its first live board (the lock), the
 * start of each later period (live snapshots) and its first final board (the game logs).
 */
function replayTimes(): number[] {
  const times = new Set<number>();
  for (let t = start; t < end; t += stepMin * MIN) times.add(t);
  for (const game of new Set(simGames.values())) {
    if (game.startMs < start || game.startMs >= end) continue;
    const span = game.endMs - game.startMs;
    const { periods } = game.sport;
    times.add(game.startMs - 1_000);
    times.add(game.startMs + 1_000);
    for (let p = 1; p < periods; p++) times.add(game.startMs + Math.ceil((p / periods) * span) + 1_000);
    if (game.endMs < end) times.add(game.endMs + 1_000);
  }
  return [...times].sort((a, b) => a - b);
}

const began = performance.now();
const dir = mkdtempSync(join(tmpdir(), 'propsfeed-backtest-'));
try {
  const db = await openDb({ dataDir: dir });
  const gameLogs = createGameLogStore(db);
  const locks = createSettlementStore(db);
  const core = new FeedCore({
    books: ['prizepicks', 'underdog'],
    gameLogs,
    locks,
    logger: SILENT_LOGGER,
    retainMs: 10 * MIN,
    now: () => start,
  });
  await gameLogs.append(pastGameLogs(world, start));
  const result = await backfill({ core, world, now: end, fromMs: start, times: replayTimes(), onStep });
  const replayed = performance.now();

  const sports = SIM_SPORTS.map((s) => s.id);
  const rows: Row[] = [];
  const reads = new Map<Row, { key: string; line: number; playerKey: string; gameId: string; reads: BookRead[] }>();
  const consensus = new Consensus();
  for (const l of await locks.settled({ sports })) {
    if (l.result === 'push') continue;
    const game = simGames.get(l.gameId);
    const player = simPlayers.get(`${l.sport}|${l.playerKey}`);
    const prop = closing.get(`${l.gameId}|${l.playerKey}|${l.stat}`);
    if (!game || !player || !prop) continue;
    rows.push({
      sport: l.sport,
      book: l.book,
      date: l.date,
      basis: l.basis,
      ours: l.pOver === null || l.pUnder === null ? null : noPush({ pOver: l.pOver, pUnder: l.pUnder }),
      market: marketAt(prop, l.line),
      oracle: noPush(oracle(world, game, player, l.stat, l.line, game.startMs - 1)),
      over: l.result === 'over',
    });
    const key = `${l.sport}|${l.stat}`;
    const propReads = bookReads(prop.books, dispersionOf(COEFFICIENTS, l.sport, l.stat));
    if (l.book === prop.books[0]?.source) consensus.observe(key, propReads);
    reads.set(rows[rows.length - 1] as Row, {
      key,
      line: l.line,
      playerKey: l.playerKey,
      gameId: l.gameId,
      reads: propReads,
    });
  }
  await yardsticks(gameLogs, reads, consensus);
  await liveOurs(gameLogs);
  const live: Row[] = [];
  for (const r of liveRows) {
    const result = resultOf(world.value(r.game, r.player, r.stat, r.game.endMs), r.line);
    if (result !== 'push' && r.game.endMs <= end) live.push({ ...r, over: result === 'over' });
  }
  if (process.argv.includes('--fit')) {
    const samples = await samplesOf(gameLogs, await locks.settled({ sports }));
    const liveSamples = live.flatMap((r) => (r.ours === null ? [] : [{ date: r.date, q: r.ours, over: r.over }]));
    const coef = {
      ...fitCoefficients(samples, '9999-99-99', `seed ${seed}`, 'simulated'),
      liveScale: fitLiveScale(liveSamples, '9999-99-99', COEFFICIENTS.liveScale),
    };
    console.log(`COEFFICIENTS (paste into server/src/odds/coefficients.ts):\n${JSON.stringify(coef, null, 2)}`);
  }
  await db.close();
  // `--rows FILE`: every scored row as a JSON line, to look into without replaying again.
  const rowsFile = option('rows', '');
  if (rowsFile)
    writeFileSync(
      rowsFile,
      [...rows, ...live]
        .map(({ sport, book, date, basis, ours, market, oracle: truth, over, yardsticks: y }) =>
          JSON.stringify({ sport, book, date, basis, ours, market, oracle: truth, over, ...(y ? { y } : {}) }),
        )
        .join('\n'),
    );
  report(rows, live, { steps: result.steps, replaySec: (replayed - began) / 1000 });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** What a prop's estimate reads of the player, as the served board and the locks read it: his logs of the stat before the game's day (odds/playerInput.ts). */
function playerInput(
  logs: readonly GameLog[],
  sport: SportId,
  playerKey: string,
  stat: string,
  day: string,
): PlayerInput {
  return playerInputBefore(
    sport,
    stat,
    logs.filter((g) => g.playerKey === playerKey && g.stat === stat),
    day,
  );
}

/** Each book's, the consensus' and the logs-only chance of each pre-game row at its line. */
async function yardsticks(
  store: GameLogStore,
  reads: Map<Row, { key: string; line: number; playerKey: string; gameId: string; reads: BookRead[] }>,
  consensus: Consensus,
): Promise<void> {
  const byGame = new Map<string, Row[]>();
  for (const [row, r] of reads) byGame.set(r.gameId, [...(byGame.get(r.gameId) ?? []), row]);
  for (const list of byGame.values()) {
    const first = list[0] as Row;
    const keys = [...new Set(list.map((row) => reads.get(row)?.playerKey as string))];
    const logs = await store.before(first.sport, keys, first.date);
    for (const row of list) {
      const r = reads.get(row) as NonNullable<ReturnType<typeof reads.get>>;
      const stat = r.key.slice(r.key.indexOf('|') + 1);
      const dispersion = dispersionOf(COEFFICIENTS, row.sport, stat);
      const of = (source: Book) => {
        const read = r.reads.find((b) => b.source === source);
        return read ? chanceAt(read, r.line, dispersion) : null;
      };
      const mean = consensus.mean(r.key, r.reads);
      const season = seasonMean(playerInput(logs, row.sport, r.playerKey, stat, row.date).values);
      row.yardsticks = {
        prizepicks: of('prizepicks'),
        underdog: of('underdog'),
        consensus: mean === null ? null : chanceAt({ line: Number.NaN, mean }, r.line, dispersion),
        logsOnly: season === null ? null : chanceAt({ line: Number.NaN, mean: season }, r.line, dispersion),
      };
    }
  }
}

/** Our live chances of each snapshot, as the served board gives them (odds/fair.ts): logs before the day, the live quotes, the value so far and the clock. */
async function liveOurs(store: GameLogStore): Promise<void> {
  const byGame = new Map<string, typeof liveRows>();
  for (const r of liveRows) byGame.set(r.gameId, [...(byGame.get(r.gameId) ?? []), r]);
  for (const list of byGame.values()) {
    const first = list[0] as (typeof liveRows)[number];
    const logs = await store.before(first.sport, [...new Set(list.map((r) => r.playerKey))], first.date);
    for (const r of list) {
      const input = playerInput(logs, r.sport, r.playerKey, r.stat, r.date);
      const chances = liveFairProbabilities(r.quotes, input, r.soFar, r.played).find(
        (p) => p.source === r.book && p.line === r.line,
      );
      if (chances?.pOver != null && chances.pUnder != null)
        r.ours = noPush({ pOver: chances.pOver, pUnder: chances.pUnder });
    }
  }
}

/** One sample per settled prop: the reads the model stacked at the lock, and the final. */
async function samplesOf(store: GameLogStore, settled: readonly SettledLock[]): Promise<Sample[]> {
  const samples: Sample[] = [];
  const seen = new Set<string>();
  const byGame = new Map<string, SettledLock[]>();
  for (const l of settled) byGame.set(l.gameId, [...(byGame.get(l.gameId) ?? []), l]);
  for (const [gameId, list] of byGame) {
    const first = list[0] as SettledLock;
    const logs = await store.before(first.sport, [...new Set(list.map((l) => l.playerKey))], first.date);
    for (const l of list) {
      const key = `${gameId}|${l.playerKey}|${l.stat}`;
      const prop = closing.get(key);
      if (seen.has(key) || !prop) continue;
      seen.add(key);
      const input = playerInput(logs, l.sport, l.playerKey, l.stat, l.date);
      const reads = readsOf(prop.books, input);
      if (reads)
        samples.push({ date: l.date, sport: l.sport, stat: l.stat, reads, final: l.finalValue, values: input.values });
    }
  }
  return samples;
}

function pct(v: number): string {
  return (v * 100).toFixed(1);
}

function line(label: string, s: Scores): string {
  return scoreLine(label, s);
}

/** Ours, the market's and the oracle's scores on a set of rows; the comparison on the rows both we and the market have. */
function scoreSet(title: string, rows: readonly Row[]): void {
  const of = (pick: (r: Row) => number | null, subset: readonly Row[] = rows): Forecast[] =>
    subset.flatMap((r) => {
      const q = pick(r);
      return q === null ? [] : [{ book: r.book, date: r.date, q, over: r.over }];
    });
  const ours = score(of((r) => r.ours));
  console.log(`${title}`);
  console.log(line('ours', ours));
  const shared = rows.filter((r) => r.ours !== null && r.market !== null);
  if (shared.length > 0) {
    const o = score(of((r) => r.ours, shared));
    const m = score(of((r) => r.market, shared));
    const t = score(of((r) => r.oracle, shared));
    console.log(line('ours (shared)', o));
    console.log(line('market (shared)', m));
    console.log(line('oracle (shared)', t));
    const gap = m.brier - t.brier;
    console.log(`  gap closed: ${gap > 0 ? pct((m.brier - o.brier) / gap) : 'n/a'} % of market→oracle`);
  }
  const both = rows.filter(
    (r) =>
      r.ours !== null &&
      r.yardsticks?.prizepicks != null &&
      r.yardsticks.underdog != null &&
      r.yardsticks.consensus !== null &&
      r.yardsticks.logsOnly !== null,
  );
  if (both.length > 0) {
    const y = (r: Row) => r.yardsticks as Yardsticks;
    console.log(line('ours (both books)', score(of((r) => r.ours, both))));
    console.log(line('book prizepicks', score(of((r) => y(r).prizepicks, both))));
    console.log(line('book underdog', score(of((r) => y(r).underdog, both))));
    console.log(line('consensus', score(of((r) => y(r).consensus, both))));
    console.log(line('logs-only', score(of((r) => y(r).logsOnly, both))));
    console.log(line('oracle (both books)', score(of((r) => r.oracle, both))));
  }
  console.log(line('oracle (all)', score(of((r) => r.oracle))));
}

/** Whether the served coefficients' edges of a basis hold up on these rows, or are withheld and why (paste into their `withheld`). */
function basisVerdict(basis: string, of: readonly Row[]): void {
  const forecast = (q: number | null, r: Row) => ({ q: q as number, over: r.over });
  const shared = of.filter((r) => r.ours !== null && r.market !== null);
  const why =
    withheldWhy(
      of.filter((r) => r.ours !== null).map((r) => forecast(r.ours, r)),
      undefined,
      `seed ${seed}, ${fromDay}..${new Date(end - DAY).toISOString().slice(0, 10)}`,
    ) ??
    withheldWhy(
      shared.map((r) => forecast(r.ours, r)),
      shared.map((r) => forecast(r.market, r)),
      `the priced props of seed ${seed}`,
    );
  const fine = shared.length > 1 ? 'calibrated and no worse than the market' : 'calibrated (no market to compare)';
  console.log(`  ${basis}: ${why ? `edges withheld, ${why}` : `${fine}: edges shown`}`);
}

function edgeTable(title: string, forecasts: Forecast[], entries: EntryBook): EdgeRow[] {
  const table = edges(forecasts, entries);
  console.log(title);
  for (const e of table) {
    const expected = e.expectedHitRate === undefined ? '' : `  oracle-expected hit ${pct(e.expectedHitRate)}`;
    console.log(
      `  ${e.entry.padEnd(22)} ≥${e.minEdge.toFixed(2)}  picks ${String(e.picks).padStart(6)}  hit ${pct(e.hitRate)} ±${pct(e.hitHalfWidth)}  ROI ${pct(e.roi).padStart(6)} ±${pct(e.roiHalfWidth)} %${expected}`,
    );
  }
  return table;
}

function report(rows: Row[], live: Row[], run: { steps: number; replaySec: number }): void {
  const total = (performance.now() - began) / 1000;
  console.log(
    `backtest: seed ${seed}, ${days} days from ${fromDay} (test window ${fromDay}..${new Date(end - DAY).toISOString().slice(0, 10)}), grid ${stepMin} min, ${run.steps} boards replayed in ${run.replaySec.toFixed(0)} s, total ${total.toFixed(0)} s`,
  );
  console.log(`model fitted on ${COEFFICIENTS.fittedOn}`);
  scoreSet('\n== pre-game, all bases', rows);
  for (const basis of [...new Set(rows.map((r) => r.basis))].sort()) {
    const of = rows.filter((r) => r.basis === basis);
    scoreSet(`\n== basis ${basis}`, of);
    basisVerdict(basis, of);
  }
  for (const sport of [...new Set(rows.map((r) => r.sport))].sort())
    scoreSet(
      `\n== sport ${sport}`,
      rows.filter((r) => r.sport === sport),
    );
  const entries = new EntryBook();
  // Each pick's true chance rides along: the tables show the hit rate it gives in expectation beside the one drawn.
  const forecasts = (pick: (r: Row) => number | null, from: readonly Row[]) =>
    from.flatMap((r) => {
      const q = pick(r);
      return q === null ? [] : [{ book: r.book, date: r.date, q, over: r.over, truth: r.oracle }];
    });
  console.log('');
  edgeTable(
    '== edges, ours (pre-game)',
    forecasts((r) => r.ours, rows),
    entries,
  );
  // What a bettor following the served edges takes: the bases whose edges the coefficients withhold carry none.
  const withheld = Object.keys(COEFFICIENTS.withheld).sort();
  if (withheld.length > 0)
    edgeTable(
      `== edges, ours (pre-game), as served: without the withheld bases (${withheld.join(', ')})`,
      forecasts(
        (r) => r.ours,
        rows.filter((r) => !withheld.includes(r.basis)),
      ),
      entries,
    );
  edgeTable(
    '== edges, market (pre-game)',
    forecasts((r) => r.market, rows),
    entries,
  );
  edgeTable(
    '== edges, oracle (pre-game)',
    forecasts((r) => r.oracle, rows),
    entries,
  );
  scoreSet('\n== live snapshots (start of each period)', live);
  basisVerdict('live', live);
  for (const sport of [...new Set(live.map((r) => r.sport))].sort())
    scoreSet(
      `\n== live ${sport}`,
      live.filter((r) => r.sport === sport),
    );
  edgeTable(
    '\n== edges, ours (live)',
    forecasts((r) => r.ours, live),
    entries,
  );
}
