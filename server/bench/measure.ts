/**
 * Driving the benchmarks' targets with autocannon: every target in turn, round after round,
 * so a baseline and its target see the same noise on a shared machine; each figure is the
 * median of its rounds.
 */
import autocannon from 'autocannon';

export interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** How busy the server process was (CPU seconds per second), when it could be read. */
  serverCpu?: number;
  /** req/s of each round, in round order. */
  roundRps: number[];
}

/** One round's figures for a target. */
type Round = Omit<Measured, 'roundRps'>;

export interface Plan {
  rounds: number;
  roundSeconds: number;
  connections: number;
}

/**
 * Connections per target: `--connections N` (or BENCH_CONNECTIONS), else 50: enough requests
 * in flight that a server whose requests wait on another process (Redis, in the shared mode)
 * is measured at load. At 10, a shared-engine replica's script calls carry about four
 * requests each, so its req/s says more about the Redis round trip than about its capacity.
 */
export function connectionsArg(argv = process.argv): number {
  const at = argv.indexOf('--connections');
  const raw = at >= 0 ? argv[at + 1] : process.env.BENCH_CONNECTIONS;
  const n = raw === undefined ? 50 : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    console.error(`--connections must be a whole number from 1 to 1000, not ${raw}`);
    process.exit(2);
  }
  return n;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function measureAll(
  targets: Target[],
  plan: Plan,
  serverCpuSeconds: () => number | undefined = () => undefined,
): Promise<Map<string, Measured>> {
  const run = (t: Target, duration: number) =>
    autocannon({ url: t.url, connections: plan.connections, duration, headers: t.headers });
  const samples = new Map<string, Round[]>(targets.map((t) => [t.name, []]));
  for (const t of targets) await run(t, 1);
  for (let round = 1; round <= plan.rounds; round++) {
    for (const t of targets) {
      const cpuBefore = serverCpuSeconds();
      const startedAt = performance.now();
      const r = await run(t, plan.roundSeconds);
      const wallSeconds = (performance.now() - startedAt) / 1000;
      const cpuAfter = serverCpuSeconds();
      const m: Round = {
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        non2xx: r.non2xx + r.errors,
      };
      if (cpuBefore !== undefined && cpuAfter !== undefined) m.serverCpu = (cpuAfter - cpuBefore) / wallSeconds;
      samples.get(t.name)?.push(m);
    }
    process.stderr.write(`  round ${round}/${plan.rounds} done\n`);
  }
  return new Map(
    [...samples].map(([name, ms]) => [
      name,
      {
        rps: median(ms.map((m) => m.rps)),
        p50: median(ms.map((m) => m.p50)),
        p99: median(ms.map((m) => m.p99)),
        non2xx: ms.reduce((n, m) => n + m.non2xx, 0),
        roundRps: ms.map((m) => m.rps),
        ...(ms.every((m) => m.serverCpu !== undefined) ? { serverCpu: median(ms.map((m) => m.serverCpu ?? 0)) } : {}),
      },
    ]),
  );
}

export interface RoundRatio {
  median: number;
  lo: number;
  hi: number;
}

/**
 * A target's req/s ÷ a baseline's, round by round: each pair was measured seconds apart, so
 * the machine's drift over the run cancels out of each ratio. The median, and the range the
 * rounds spread over (how much a single run of this benchmark can be trusted here).
 */
export function roundRatio(results: Map<string, Measured>, target: string, baseline: string): RoundRatio {
  const ours = results.get(target)?.roundRps ?? [];
  const base = results.get(baseline)?.roundRps ?? [];
  const ratios = ours.map((rps, i) => rps / (base[i] ?? Number.NaN)).filter(Number.isFinite);
  if (ratios.length === 0) return { median: 0, lo: 0, hi: 0 };
  return { median: median(ratios), lo: Math.min(...ratios), hi: Math.max(...ratios) };
}

/** The plan in words, for the first line of a benchmark's output. */
export function describePlan(plan: Plan, pinned: boolean): string {
  return `${plan.connections} connections, ${plan.rounds} interleaved rounds of ${plan.roundSeconds} s per target (medians), loopback${pinned ? ', server and load generator pinned to separate CPUs' : ''}`;
}

/**
 * The results as a table: req/s, p50 and p99, the non-2xx count over all rounds, and how
 * busy the server process was (100% is one CPU: the target is as fast as the server's code).
 */
export function printResults(results: Map<string, Measured>, nameWidth: number): void {
  const num = (n: number, d = 0) => n.toFixed(d).padStart(9);
  console.log(
    `${'target'.padEnd(nameWidth)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'non-2xx'.padStart(9)}${'srv CPU'.padStart(9)}`,
  );
  for (const [name, m] of results) {
    const cpu = m.serverCpu === undefined ? '-' : `${Math.round(m.serverCpu * 100)}%`;
    console.log(
      `${name.padEnd(nameWidth)}${num(m.rps)}${num(m.p50, 1)}${num(m.p99, 1)}${num(m.non2xx)}${cpu.padStart(9)}`,
    );
  }
}
