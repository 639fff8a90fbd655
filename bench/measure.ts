/**
 * Driving the benchmarks' targets with wrk (Debian's package, written in C: it drives a
 * server far harder than a Node client can): every target in turn, round after round, so a
 * baseline and its target see the same noise on a shared machine; each figure is the median
 * of its rounds. With the server pinned to one CPU and wrk to the other (bench/process.ts),
 * the server's CPU tells whether a target saturated it: only then is a throughput ratio the
 * server's; otherwise the CPU each request cost is compared instead.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
  /** The process serving it, when not the benchmark's main serving child. */
  probe?: ServerProbe;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** How busy the server process was (CPU seconds per second), when it could be read. */
  serverCpu?: number;
  /** Server CPU milliseconds per request (median of the rounds), when the CPU could be read. */
  cpuMsPerRequest?: number;
  /** The same of the server's main thread only (its event loop: the API thread), when it could be read. */
  mainThreadCpu?: number;
  mainThreadCpuMsPerRequest?: number;
  /** req/s of each round, in round order. */
  roundRps: number[];
  /** CPU ms per request of each round, in round order (empty when the CPU could not be read). */
  roundCpuMs: number[];
  /** The main thread's CPU ms per request of each round, likewise. */
  roundMainThreadCpuMs: number[];
  /** p99 of each round (ms), in round order. */
  roundP99: number[];
  /** Rounds in which the server answered nothing at all (its event loop held for the whole round). */
  stalledRounds?: number;
  /** The server's resident memory after the target's last round (MB), when it could be read. */
  rssMb?: number;
}

/** One round's figures for a target. */
interface Round {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  serverCpu?: number;
  mainThreadCpu?: number;
}

export interface Plan {
  rounds: number;
  roundSeconds: number;
  connections: number;
}

/** What the server process can be asked while targets run. */
export interface ServerProbe {
  /** CPU seconds the server has used so far. */
  cpuSeconds(): number | undefined;
  /** CPU seconds its main thread has used so far (where threads can be read). */
  mainThreadCpuSeconds?(): number | undefined;
  /** Its resident memory in MB. */
  rssMb(): number | undefined;
}

/** A throughput ratio is the server's only while the server is this busy (1 = one CPU). */
export const SATURATED_CPU = 0.9;

/**
 * Connections per target: `--connections N` (or BENCH_CONNECTIONS), else 50: enough requests
 * in flight that a server whose requests wait on another process (Redis, in the shared mode)
 * is measured at load. At 10, a shared-engine replica's script calls carry about four
 * requests each, so its req/s says more about the Redis round trip than about its capacity.
 */
function connectionsArg(argv = process.argv): number {
  const at = argv.indexOf('--connections');
  const raw = at >= 0 ? argv[at + 1] : process.env.BENCH_CONNECTIONS;
  const n = raw === undefined ? 50 : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    console.error(`--connections must be a whole number from 1 to 1000, not ${raw}`);
    process.exit(2);
  }
  return n;
}

/**
 * A benchmark's plan: `rounds` interleaved rounds per target of `roundSeconds` (BENCH_ROUND_SECONDS
 * overrides it: wrk takes whole seconds), at `connectionsArg()` connections.
 */
export function benchPlan(rounds: number, roundSeconds: number): Plan {
  return {
    rounds,
    roundSeconds: Number(process.env.BENCH_ROUND_SECONDS ?? roundSeconds),
    connections: connectionsArg(),
  };
}

/** Exits with a sentence saying how to install wrk when it is not on the PATH (before a benchmark starts its server). */
export function requireWrk(): void {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    // wrk --version exits 1 after printing its version: only a missing binary is fatal.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
    console.error(
      'The benchmarks drive the server with wrk, which is not installed: on Debian or Ubuntu run `sudo apt-get install wrk` (macOS: `brew install wrk`), then run this again.',
    );
    process.exit(2);
  }
}

/** wrk's Lua hook printing one JSON line of the figures the benchmark reads. */
const REPORT_LUA = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nBENCH {"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"non2xx":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
`;

interface WrkReport {
  requests: number;
  durationUs: number;
  p50Us: number;
  p99Us: number;
  non2xx: number;
  errors: number;
}

function runWrk(script: string, target: Target, connections: number, seconds: number): Promise<WrkReport> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script];
  for (const [name, value] of Object.entries(target.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(target.url);
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const line = stdout.split('\n').find((l) => l.startsWith('BENCH '));
      if (error || !line) {
        reject(new Error(`wrk failed on ${target.name}: ${error?.message ?? ''} ${stderr}`.trim()));
        return;
      }
      resolve(JSON.parse(line.slice('BENCH '.length)) as WrkReport);
    });
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * CPU ms per request of each round from a CPU share (`cpu` of a round), or none when a round's
 * CPU could not be read. A round with no answer (the server's event loop held for the whole
 * round) has no CPU per request: NaN keeps the other rounds paired with their baseline's by index.
 */
function perRequestMs(rounds: Round[], cpu: (round: Round) => number | undefined): number[] {
  if (!rounds.every((m) => cpu(m) !== undefined)) return [];
  return rounds.map((m) => (m.rps > 0 ? ((cpu(m) ?? 0) / m.rps) * 1000 : Number.NaN));
}

export async function measureAll(
  targets: Target[],
  plan: Plan,
  server: ServerProbe = { cpuSeconds: () => undefined, rssMb: () => undefined },
): Promise<Map<string, Measured>> {
  const dir = mkdtempSync(join(tmpdir(), 'propsfeed-wrk-'));
  const script = join(dir, 'report.lua');
  writeFileSync(script, REPORT_LUA);
  const samples = new Map<string, Round[]>(targets.map((t) => [t.name, []]));
  const rss = new Map<string, number | undefined>();
  try {
    for (const t of targets) await runWrk(script, t, plan.connections, 1); // warm-up
    for (let round = 1; round <= plan.rounds; round++) {
      for (const t of targets) {
        const probe = t.probe ?? server;
        const cpuBefore = probe.cpuSeconds();
        const mainBefore = probe.mainThreadCpuSeconds?.();
        const startedAt = performance.now();
        const r = await runWrk(script, t, plan.connections, plan.roundSeconds);
        const wallSeconds = (performance.now() - startedAt) / 1000;
        const cpuAfter = probe.cpuSeconds();
        const mainAfter = probe.mainThreadCpuSeconds?.();
        const m: Round = {
          rps: r.requests / (r.durationUs / 1e6),
          p50: r.p50Us / 1000,
          p99: r.p99Us / 1000,
          non2xx: r.non2xx + r.errors,
        };
        if (cpuBefore !== undefined && cpuAfter !== undefined) m.serverCpu = (cpuAfter - cpuBefore) / wallSeconds;
        if (mainBefore !== undefined && mainAfter !== undefined)
          m.mainThreadCpu = (mainAfter - mainBefore) / wallSeconds;
        samples.get(t.name)?.push(m);
        rss.set(t.name, probe.rssMb());
      }
      process.stderr.write(`  round ${round}/${plan.rounds} done\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return new Map(
    [...samples].map(([name, ms]) => {
      const roundCpuMs = perRequestMs(ms, (m) => m.serverCpu);
      const roundMainThreadCpuMs = perRequestMs(ms, (m) => m.mainThreadCpu);
      const stalled = ms.filter((m) => m.rps === 0).length;
      const measured: Measured = {
        rps: median(ms.map((m) => m.rps)),
        p50: median(ms.map((m) => m.p50)),
        p99: median(ms.map((m) => m.p99)),
        non2xx: ms.reduce((n, m) => n + m.non2xx, 0),
        roundRps: ms.map((m) => m.rps),
        roundCpuMs,
        roundMainThreadCpuMs,
        roundP99: ms.map((m) => m.p99),
      };
      if (roundCpuMs.length > 0) {
        measured.serverCpu = median(ms.map((m) => m.serverCpu ?? 0));
        measured.cpuMsPerRequest = median(roundCpuMs.filter(Number.isFinite));
      }
      if (roundMainThreadCpuMs.length > 0) {
        measured.mainThreadCpu = median(ms.map((m) => m.mainThreadCpu ?? 0));
        measured.mainThreadCpuMsPerRequest = median(roundMainThreadCpuMs.filter(Number.isFinite));
      }
      if (stalled > 0) measured.stalledRounds = stalled;
      const memory = rss.get(name);
      if (memory !== undefined) measured.rssMb = memory;
      return [name, measured];
    }),
  );
}

export interface RoundRatio {
  median: number;
  lo: number;
  hi: number;
}

/** `ours[i] ÷ base[i]` round by round (rounds measured seconds apart, so drift cancels): the median and the range. */
export function ratioOfRounds(ours: number[], base: number[]): RoundRatio {
  const ratios = ours.map((x, i) => x / (base[i] ?? Number.NaN)).filter(Number.isFinite);
  if (ratios.length === 0) return { median: 0, lo: 0, hi: 0 };
  return { median: median(ratios), lo: Math.min(...ratios), hi: Math.max(...ratios) };
}

/**
 * A target's req/s ÷ a baseline's, round by round: each pair was measured seconds apart, so
 * the machine's drift over the run cancels out of each ratio. The median, and the range the
 * rounds spread over (how much a single run of this benchmark can be trusted here).
 */
function roundRatio(results: Map<string, Measured>, target: string, baseline: string): RoundRatio {
  return ratioOfRounds(results.get(target)?.roundRps ?? [], results.get(baseline)?.roundRps ?? []);
}

export interface Comparison extends RoundRatio {
  /** What the ratio compares: throughput while both saturated the server, else CPU per request. */
  basis: 'throughput' | 'CPU per request';
}

/**
 * The headline ratio of a target against its baseline (higher is better for the target):
 * req/s ÷ req/s while both kept the server at least SATURATED_CPU busy, since only then is
 * the server the bottleneck; otherwise the baseline's CPU per request ÷ the target's.
 */
export function compare(results: Map<string, Measured>, target: string, baseline: string): Comparison {
  const ours = results.get(target);
  const base = results.get(baseline);
  const saturated = [ours, base].every((m) => m?.serverCpu !== undefined && m.serverCpu >= SATURATED_CPU);
  const cpuKnown = (ours?.roundCpuMs.length ?? 0) > 0 && (base?.roundCpuMs.length ?? 0) > 0;
  if (saturated || !cpuKnown) return { ...roundRatio(results, target, baseline), basis: 'throughput' };
  return { ...ratioOfRounds(base?.roundCpuMs ?? [], ours?.roundCpuMs ?? []), basis: 'CPU per request' };
}

/** Prints comparisons as a table with their goals. */
function printComparisons(rows: Array<[name: string, Comparison, goal: number | undefined]>, nameWidth: number): void {
  console.log(`\n${'ratio (median of the rounds)'.padEnd(nameWidth)}  value  rounds       basis            goal`);
  for (const [name, { median: value, lo, hi, basis }, goal] of rows) {
    const range = `${lo.toFixed(2)}-${hi.toFixed(2)}`;
    console.log(
      `${name.padEnd(nameWidth)}${value.toFixed(3).padStart(7)}  ${range.padEnd(11)}  ${basis.padEnd(16)} ${goal === undefined ? '(context)' : `≥ ${goal}  ${value >= goal ? 'met' : 'NOT MET'}`}`,
    );
  }
  console.log(
    `(basis: req/s ÷ req/s where both kept the server's CPU ≥ ${SATURATED_CPU * 100}%, else the baseline's CPU per request ÷ the target's)`,
  );
}

/** A ratio to print: its label, the target, the baseline it is divided by, and its goal (undefined: context). */
export type GoalRow = [name: string, target: string, baseline: string, goal: number | undefined];

/**
 * Prints the ratios whose target and baseline were both measured (`--only` may leave some out),
 * and nothing, not even the header, when none were.
 */
export function printGoals(results: Map<string, Measured>, rows: GoalRow[], nameWidth: number): void {
  const measured = rows.filter(([, target, baseline]) => results.has(target) && results.has(baseline));
  if (measured.length === 0) return;
  printComparisons(
    measured.map(([name, target, baseline, goal]) => [name, compare(results, target, baseline), goal]),
    nameWidth,
  );
}

/** The plan in words, for the first line of a benchmark's output. */
export function describePlan(plan: Plan, pinned: boolean): string {
  return `wrk, ${plan.connections} connections, ${plan.rounds} interleaved rounds of ${plan.roundSeconds} s per target (medians), loopback${pinned ? ', server and wrk pinned to separate CPUs' : ' (not pinned: fewer than 2 CPUs or no taskset)'}`;
}

/**
 * The results as a table: req/s, p50 and p99, the non-2xx count over all rounds, how busy the
 * server process was (100% is one CPU: the target is as fast as the server's code), the CPU
 * each request cost it, the part of that spent on its main thread (the event loop that answers)
 * and its resident memory.
 */
export function printResults(results: Map<string, Measured>, nameWidth: number): void {
  const num = (n: number, d = 0) => n.toFixed(d).padStart(9);
  console.log(
    `${'target'.padEnd(nameWidth)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'non-2xx'.padStart(9)}${'srv CPU'.padStart(9)}${'CPU µs/req'.padStart(11)}${'main µs/req'.padStart(12)}${'RSS MB'.padStart(8)}`,
  );
  for (const [name, m] of results) {
    const cpu = m.serverCpu === undefined ? '-' : `${Math.round(m.serverCpu * 100)}%`;
    const perRequest = m.cpuMsPerRequest === undefined ? '-' : (m.cpuMsPerRequest * 1000).toFixed(0);
    const main = m.mainThreadCpuMsPerRequest === undefined ? '-' : (m.mainThreadCpuMsPerRequest * 1000).toFixed(0);
    const rss = m.rssMb === undefined ? '-' : m.rssMb.toFixed(0);
    const stalled = m.stalledRounds ? `  ${m.stalledRounds} round(s) with no answer at all` : '';
    console.log(
      `${name.padEnd(nameWidth)}${num(m.rps)}${num(m.p50, 2)}${num(m.p99, 2)}${num(m.non2xx)}${cpu.padStart(9)}${perRequest.padStart(11)}${main.padStart(12)}${rss.padStart(8)}${stalled}`,
    );
  }
}
