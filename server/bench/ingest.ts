/**
 * Ingest benchmark: two books of 5,000 lines each through the feed's cycle (intern the
 * book's slate, merge both into a board). Prints ms per cycle and memory, with a baseline
 * measured in the same run (structured-cloning both slates) so numbers compare across machines.
 * Goal: under 25 ms per merge cycle. Run: `pnpm bench:ingest`.
 */
import type { SportId } from '@propsfeed/contract';
import { newSlateLine, type ParseResult, type SlateGame, type SlateLine } from '../src/books/types';
import { FeedCore } from '../src/feed/core';
import { BoardMerger, type BookView } from '../src/feed/merge';

const LINES_PER_BOOK = 5_000;
const GAMES = 100;
const CYCLES = 40;
const T0 = Date.parse('2026-11-22T00:00:00Z');

function slate(book: 'prizepicks' | 'underdog', cycle: number): ParseResult {
  const prefix = book === 'prizepicks' ? 'pp_' : 'ud_';
  const games: SlateGame[] = [];
  const lines: SlateLine[] = [];
  const perGame = LINES_PER_BOOK / GAMES;
  for (let g = 0; g < GAMES; g++) {
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

async function main(): Promise<void> {
  const silent = { info() {}, warn() {}, error() {} };
  const core = new FeedCore({
    books: ['prizepicks', 'underdog'],
    logger: silent,
    retainMs: 30 * 60_000,
    now: () => T0,
  });
  // Each cycle's slates are made outside the timings, as a parse would hand them over.
  const input = (c: number) => [slate('prizepicks', c), slate('underdog', c)] as const;

  // Baseline: structured-clone both books' slates once per cycle.
  const baseline: number[] = [];
  const baselineCpu: number[] = [];
  for (let c = 0; c < 10; c++) {
    const [pp, ud] = input(c);
    const t = performance.now();
    const cpu = cpuMs();
    structuredClone([pp.slate, ud.slate]);
    baselineCpu.push(cpuMs() - cpu);
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

  // Cold merges: every game rebuilt (no previous board to share with).
  const cold: number[] = [];
  for (let c = 0; c < 10; c++) {
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
  const warmCpu = cyclesCpu.slice(5);
  const mem = process.memoryUsage();
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(`ingest: 2 books x ${LINES_PER_BOOK} lines, ${GAMES} games per book -> ${props} merged props`);
  console.log(
    `baseline (structuredClone of both slates): ${median(baseline).toFixed(2)} ms wall, ${median(baselineCpu).toFixed(2)} ms cpu`,
  );
  console.log(
    `merge cycle (intern + merge, 1% of lines moved): median ${median(warm).toFixed(2)} ms wall (max ${Math.max(...warm).toFixed(2)}), ${median(warmCpu).toFixed(2)} ms cpu, over ${warm.length} cycles (${(median(warm) / median(baseline)).toFixed(2)}x baseline)`,
  );
  console.log(
    `cold merge (every game rebuilt): median ${median(cold).toFixed(2)} ms (${(median(cold) / median(baseline)).toFixed(2)}x baseline)`,
  );
  console.log(
    `goal: < 25 ms per merge cycle -> ${median(warm) < 25 ? 'met' : 'NOT met'} in wall time, ${median(warmCpu) < 25 ? 'met' : 'NOT met'} in cpu time (load average ${(await import('node:os')).loadavg()[0]?.toFixed(1)} on ${(await import('node:os')).cpus().length} cores)`,
  );
  console.log(`memory: heapUsed ${mb(mem.heapUsed)}, rss ${mb(mem.rss)}`);
}

await main();
