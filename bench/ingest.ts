/**
 * Ingest benchmark: two books through the feed's cycle (intern each book's slate, merge both
 * into a board) at 5,000, 20,000 and 50,000 lines per book (50 lines a game). Prints ms per
 * cycle (wall and CPU), a cold merge, and the heap the feed holds after a collection, with
 * a baseline measured in the same run (structured-cloning both slates) so numbers compare
 * across machines, and how each grows against the line count. Goal: under 25 ms per merge
 * cycle at 5,000 lines per book. Run: `pnpm bench:ingest`.
 */
import { cpus, loadavg } from 'node:os';
import type { SportId } from '@propsfeed/contract';
import { newSlateLine, type ParseResult, type SlateGame, type SlateLine } from '@propsfeed/server/books';
import { BoardMerger, type BookView, FeedCore } from '@propsfeed/server/feed';

/** Lines per book measured: `--sizes 5000,50000` picks some (the first is the one growth is read against). */
function sizesArg(argv = process.argv): number[] {
  const at = argv.indexOf('--sizes');
  if (at < 0) return [5_000, 20_000, 50_000];
  const sizes = (argv[at + 1] ?? '').split(',').map(Number);
  if (sizes.length === 0 || !sizes.every((n) => Number.isInteger(n) && n >= LINES_PER_GAME && n <= 500_000)) {
    console.error(`--sizes takes lines per book separated by commas, each from ${LINES_PER_GAME} to 500000`);
    process.exit(2);
  }
  return sizes;
}
const LINES_PER_GAME = 50;
const CYCLES = 30;
/** Issue #30: the warm cycle's CPU per line may grow at most this much from the smallest size to the largest. */
const GROWTH_GOAL = 1.1;
const T0 = Date.parse('2026-11-22T00:00:00Z');

function slate(book: 'prizepicks' | 'underdog', cycle: number, linesPerBook: number): ParseResult {
  const prefix = book === 'prizepicks' ? 'pp_' : 'ud_';
  const games: SlateGame[] = [];
  const lines: SlateLine[] = [];
  const perGame = LINES_PER_GAME;
  for (let g = 0; g < linesPerBook / LINES_PER_GAME; g++) {
    const sport = (['nba', 'mlb', 'nfl', 'nhl'] as const)[g % 4] as SportId;
    const gameId = `${prefix}${1000 + g}`;
    games.push({
      id: gameId,
      sport,
      homeTeam: `Home Team ${g}`,
      awayTeam: `Away Team ${g}`,
      homeKnown: true,
      startMs: T0 + g * 600_000 + (book === 'underdog' ? 300_000 : 0),
      state: g < 10 ? 'live' : 'pre',
    });
    for (let i = 0; i < perGame; i++) {
      const player = `Player ${g}-${Math.floor(i / 5)}`;
      // 1 % of lines move each cycle; a third of Underdog's lines sit half a point off.
      const moved = (g * perGame + i) % 100 === cycle % 100 ? 1 : 0;
      const line = newSlateLine({
        gameId,
        player,
        playerKey: `player ${g} ${Math.floor(i / 5)}|home team ${g}`,
        stat: `stat_${i % 5}`,
        line: 10.5 + (i % 7) + moved + (book === 'underdog' && i % 3 === 0 ? 0.5 : 0),
      });
      line.team = `Home Team ${g}`;
      if (book === 'underdog') {
        line.overOdds = -110 - (i % 4) * 5;
        line.underOdds = -110 + (i % 4) * 5;
      }
      lines.push(line);
    }
  }
  return { slate: { book, games, lines }, skipped: 0, unmapped: {} };
}

/** CPU time (user + system) of the process in ms: on a shared, busy machine it says more than wall time. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Heap in use after a full collection (run with --expose-gc; else as it stands). */
function heapUsedAfterGc(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

interface SizeResult {
  linesPerBook: number;
  props: number;
  baselineMs: number;
  cycleMs: number;
  cycleCpuMs: number;
  maxCycleMs: number;
  coldMs: number;
  heapMb: number;
}

async function measureSize(linesPerBook: number): Promise<SizeResult> {
  const silent = { info() {}, warn() {}, error() {} };
  const heapBefore = heapUsedAfterGc();
  const core = new FeedCore({
    books: ['prizepicks', 'underdog'],
    logger: silent,
    retainMs: 30 * 60_000,
    now: () => T0,
  });
  // Each cycle's slates are made outside the timings, as a parse would hand them over.
  const input = (c: number) => [slate('prizepicks', c, linesPerBook), slate('underdog', c, linesPerBook)] as const;

  // Baseline: structured-clone both books' slates once per cycle.
  const baseline: number[] = [];
  for (let c = 0; c < 5; c++) {
    const [pp, ud] = input(c);
    const t = performance.now();
    structuredClone([pp.slate, ud.slate]);
    baseline.push(performance.now() - t);
  }

  // Full cycles: both books' slates interned (1 % of lines changed) and one merge.
  const cycles: number[] = [];
  const cyclesCpu: number[] = [];
  let props = 0;
  for (let c = 0; c < CYCLES; c++) {
    const [pp, ud] = input(c);
    const t = performance.now();
    const cpu = cpuMs();
    core.applyPart('prizepicks', 'all', pp, T0 + c * 5_000);
    core.applyPart('underdog', 'all', ud, T0 + c * 5_000);
    const board = await core.commit(['prizepicks', 'underdog'], T0 + c * 5_000, { notify: false });
    cyclesCpu.push(cpuMs() - cpu);
    cycles.push(performance.now() - t);
    props = board ? board.games.reduce((n, g) => n + g.props.length, 0) : props;
  }
  // What the feed holds (its board, interned slates and retained history) after the cycles.
  const heapMb = (heapUsedAfterGc() - heapBefore) / 1024 / 1024;

  // Cold merges: every game rebuilt (no previous board to share with).
  const cold: number[] = [];
  for (let c = 0; c < 5; c++) {
    const [pp, ud] = input(c);
    const views: BookView[] = [pp, ud].map((r) => ({
      book: r.slate.book,
      fetchedAt: T0,
      games: r.slate.games,
      lines: r.slate.lines.map((l) => ({ ...l, updatedAt: T0 })),
    }));
    const t = performance.now();
    new BoardMerger().merge(views, () => T0);
    cold.push(performance.now() - t);
  }
  const warm = cycles.slice(5);
  return {
    linesPerBook,
    props,
    baselineMs: median(baseline),
    cycleMs: median(warm),
    cycleCpuMs: median(cyclesCpu.slice(5)),
    maxCycleMs: Math.max(...warm),
    coldMs: median(cold),
    heapMb,
  };
}

async function main(): Promise<void> {
  const results: SizeResult[] = [];
  for (const size of sizesArg()) {
    results.push(await measureSize(size));
    process.stderr.write(`  ${size} lines per book done\n`);
  }
  const gcNote = (globalThis as { gc?: unknown }).gc ? 'after a full GC' : 'no --expose-gc: heap as it stood';
  console.log(
    `ingest: two books, ${LINES_PER_GAME} lines a game, 1% of lines moved per cycle, medians of ${CYCLES - 5} warm cycles (load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores)\n`,
  );
  const cols = [
    'lines/book',
    'props',
    'clone ms',
    'cycle ms',
    'cycle cpu',
    'max ms',
    'cold ms',
    'heap MB',
    'cycle ÷ clone',
  ];
  console.log(cols.map((c) => c.padStart(14)).join(''));
  for (const r of results) {
    const cells = [
      r.linesPerBook.toLocaleString('en-US'),
      r.props.toLocaleString('en-US'),
      r.baselineMs.toFixed(1),
      r.cycleMs.toFixed(1),
      r.cycleCpuMs.toFixed(1),
      r.maxCycleMs.toFixed(1),
      r.coldMs.toFixed(1),
      r.heapMb.toFixed(1),
      (r.cycleMs / r.baselineMs).toFixed(2),
    ];
    console.log(cells.map((c) => c.padStart(14)).join(''));
  }
  // Growth against the smallest size: 1.0 per unit of lines is linear.
  const first = results[0];
  if (first) {
    console.log(
      '\ngrowth per 1x more lines (1.00 = linear; the cycle in CPU time, steadier than wall time on a busy machine):',
    );
    for (const r of results.slice(1)) {
      const x = r.linesPerBook / first.linesPerBook;
      console.log(
        `  ${x}x lines: cycle ${(r.cycleCpuMs / first.cycleCpuMs / x).toFixed(2)}, cold merge ${(r.coldMs / first.coldMs / x).toFixed(2)}, heap ${(r.heapMb / first.heapMb / x).toFixed(2)}, clone baseline ${(r.baselineMs / first.baselineMs / x).toFixed(2)}`,
      );
    }
    const last = results[results.length - 1];
    if (last && last !== first) {
      const growth = last.cycleCpuMs / first.cycleCpuMs / (last.linesPerBook / first.linesPerBook);
      console.log(
        `\ngoal: the warm cycle (CPU) grows ≤ ${GROWTH_GOAL}× per unit of lines from ${first.linesPerBook.toLocaleString('en-US')} to ${last.linesPerBook.toLocaleString('en-US')} lines per book -> ${growth.toFixed(2)}× ${growth <= GROWTH_GOAL ? 'met' : 'NOT met'}`,
      );
    }
    console.log(
      `goal: < 25 ms per merge cycle at ${first.linesPerBook.toLocaleString('en-US')} lines per book -> ${first.cycleMs < 25 ? 'met' : 'NOT met'} in wall time, ${first.cycleCpuMs < 25 ? 'met' : 'NOT met'} in cpu time (heap ${gcNote})`,
    );
  }
}

await main();
