/**
 * The `props serve` section of `pnpm bench`, against issue #40's goals. Per checkout: its idle
 * CPU at the busy hour (the API thread, i.e. the main thread, against its goal; the process's
 * other threads beside it, where an ingest worker shows when there is one), then per route its
 * CPU per request (the whole process, gross and net of idle, and the API thread alone) and p99
 * beside bare Fastify sending the same bytes, whose main thread does all of its serving. Then
 * checkouts side by side (`--serve-from`) and one summary of the per-route goals.
 */
import { type GoalRow, type Measured, printGoals, type RoundRatio, ratioOfRounds, SATURATED_CPU } from './measure';
import { describeOtherThreads, UNNAMED_THREADS } from './process';
import {
  BUSY_EVENING,
  dataDirGrowth,
  IDLE_SECONDS,
  SETTLE_SECONDS,
  type ServeInstance,
  type ServePair,
  type ServePairs,
} from './serveTargets';

/** Issue #40's goals for the API thread (shares of a core; ratios against bare Fastify in the same run). */
export const GOALS = {
  /** Bare Fastify's main-thread CPU per request ÷ the API thread's: at least this. */
  apiThreadCpu: 0.9,
  /** `props serve`'s p99 ÷ bare Fastify's under the same connections: at most this. */
  p99: 2,
  /** The API thread's CPU with no request at the busy hour: at most this share of a core. */
  idleApiThread: 0.01,
} as const;

/** One route's figures against issue #40's goals. */
interface RouteGoals {
  ours: Measured;
  fastify: Measured;
  /** Fastify's main-thread CPU per request ÷ the API thread's, round by round; undefined where threads could not be read. */
  apiThreadCpu: RoundRatio | undefined;
  /** Our p99 ÷ Fastify's, round by round. */
  p99: RoundRatio;
}

function routeGoals(results: Map<string, Measured>, pair: ServePair): RouteGoals | undefined {
  const ours = results.get(pair.ours);
  const fastify = results.get(pair.fastify);
  if (!ours || !fastify) return undefined;
  const threadsRead = ours.roundMainThreadCpuMs.length > 0 && fastify.roundMainThreadCpuMs.length > 0;
  return {
    ours,
    fastify,
    apiThreadCpu: threadsRead ? ratioOfRounds(fastify.roundMainThreadCpuMs, ours.roundMainThreadCpuMs) : undefined,
    p99: ratioOfRounds(ours.roundP99, fastify.roundP99),
  };
}

const pct = (share: number | undefined) => (share === undefined ? '-' : `${(share * 100).toFixed(1)} %`);
const micros = (ms: number | undefined) => (ms === undefined ? '-' : (ms * 1000).toFixed(0));
const metOrNot = (met: boolean) => (met ? 'met' : 'NOT MET');

/** The idle line: the API thread against its goal, the whole process, the other threads by name. */
function printIdle(instance: ServeInstance): void {
  const { process: whole, threads } = instance.idle;
  const api = threads
    ? `API thread ${pct(threads.main)} of a core (goal ≤ ${pct(GOALS.idleApiThread)}: ${metOrNot(threads.main <= GOALS.idleApiThread)})`
    : 'API thread - (no /proc threads here)';
  console.log(
    `idle, no request (${IDLE_SECONDS} s after ${SETTLE_SECONDS} s settling): ${api}; whole process ${pct(whole)}`,
  );
  if (!threads) return;
  // A worker whose `name` says ingest is shown by name where Node names threads (24); on Node 20
  // every thread is called after the process, and an ingest worker is the busiest of them.
  const ingest = threads.groups.find((g) => /ingest/i.test(g.name));
  const unnamed = threads.groups.every((g) => g.name === UNNAMED_THREADS);
  console.log(
    `  beside it${ingest ? `, the ingest worker (${ingest.name}) ${pct(ingest.share)}; all` : ','} the other threads: ${describeOtherThreads(threads)}${unnamed ? ' (this Node names no thread)' : ''}`,
  );
}

/** The per-route table: the existing whole-process columns, then the API thread's and p99 beside Fastify's. */
function printRoutes(instance: ServeInstance, pairs: ServePair[], results: Map<string, Measured>): void {
  const idle = instance.idle.process;
  console.log(
    `${'route'.padEnd(16)}${'bytes'.padStart(9)}${'req/s'.padStart(9)}${'CPU'.padStart(6)}${'µs/req'.padStart(8)}${'net µs'.padStart(8)}${'API µs'.padStart(8)}${'p99 ms'.padStart(8)}${'Fastify'.padStart(9)}${'CPU'.padStart(6)}${'µs/req'.padStart(8)}${'main µs'.padStart(8)}${'p99 ms'.padStart(8)}  bottleneck`,
  );
  for (const pair of pairs) {
    const ours = results.get(pair.ours);
    const base = results.get(pair.fastify);
    if (!ours || !base) continue;
    const cpu = (m: Measured) => (m.serverCpu === undefined ? '-' : `${Math.round(m.serverCpu * 100)}%`);
    const net =
      ours.cpuMsPerRequest === undefined || idle === undefined || ours.rps === 0
        ? '-'
        : ((ours.cpuMsPerRequest - (idle / ours.rps) * 1000) * 1000).toFixed(0);
    const saturated = (m: Measured) => (m.serverCpu ?? 0) >= SATURATED_CPU;
    const bottleneck =
      saturated(ours) && saturated(base)
        ? 'server CPU (both)'
        : `not the server's CPU alone (${saturated(ours) ? '' : 'props serve '}${saturated(base) ? '' : 'Fastify'} < ${SATURATED_CPU * 100}%): ratio of CPU per request`;
    const bytes = instance.answers.get(pair.route)?.body.length ?? 0;
    const cells = [
      String(bytes).padStart(9),
      ours.rps.toFixed(0).padStart(9),
      cpu(ours).padStart(6),
      micros(ours.cpuMsPerRequest).padStart(8),
      net.padStart(8),
      micros(ours.mainThreadCpuMsPerRequest).padStart(8),
      ours.p99.toFixed(1).padStart(8),
      base.rps.toFixed(0).padStart(9),
      cpu(base).padStart(6),
      micros(base.cpuMsPerRequest).padStart(8),
      micros(base.mainThreadCpuMsPerRequest).padStart(8),
      base.p99.toFixed(1).padStart(8),
    ];
    console.log(`${pair.route.padEnd(16)}${cells.join('')}  ${bottleneck}`);
  }
}

/** Per route: the API thread's CPU per request and p99 against bare Fastify's, with the rounds' range and the goals. */
function printRouteGoals(pairs: ServePair[], results: Map<string, Measured>): void {
  console.log(
    `\n${'API thread vs bare Fastify'.padEnd(16)}${'API µs/req ours vs Fastify'.padStart(28)}${'ratio'.padStart(7)}  ${'rounds'.padEnd(11)}${'goal'.padEnd(14)}${'p99 ms ours vs Fastify'.padStart(24)}${'ratio'.padStart(7)}  ${'rounds'.padEnd(11)}goal`,
  );
  for (const pair of pairs) {
    const g = routeGoals(results, pair);
    if (!g) continue;
    const range = (r: RoundRatio) => `${r.lo.toFixed(2)}-${r.hi.toFixed(2)}`;
    const cpu = g.apiThreadCpu
      ? `${`${micros(g.ours.mainThreadCpuMsPerRequest)} vs ${micros(g.fastify.mainThreadCpuMsPerRequest)}`.padStart(28)}${g.apiThreadCpu.median.toFixed(2).padStart(7)}  ${range(g.apiThreadCpu).padEnd(11)}${`≥ ${GOALS.apiThreadCpu}  ${metOrNot(g.apiThreadCpu.median >= GOALS.apiThreadCpu)}`.padEnd(14)}`
      : `${'- (no /proc threads)'.padStart(28)}${''.padEnd(34)}`;
    const p99 = `${`${g.ours.p99.toFixed(1)} vs ${g.fastify.p99.toFixed(1)}`.padStart(24)}${g.p99.median.toFixed(2).padStart(7)}  ${range(g.p99).padEnd(11)}≤ ${GOALS.p99}  ${metOrNot(g.p99.median <= GOALS.p99)}`;
    console.log(`${pair.route.padEnd(16)}${cpu}${p99}`);
  }
  console.log(
    "(ratios: the median of the rounds' own ratios, each round's pair measured seconds apart; CPU: Fastify's ÷ ours, p99: ours ÷ Fastify's)",
  );
}

/** This checkout against another, route by route: below 1, this checkout is cheaper or faster. */
function printSideBySide(mine: ServePairs, other: ServePairs, results: Map<string, Measured>): void {
  console.log(`\n${mine.instance.label} ÷ ${other.instance.label} (below 1: this checkout is cheaper or faster)`);
  const cell = (a: number | undefined, b: number | undefined, show: (x: number) => string, width: number) =>
    a === undefined || b === undefined
      ? `${'-'.padStart(width)}${'-'.padStart(7)}`
      : `${`${show(a)} ÷ ${show(b)}`.padStart(width)}${(a / b).toFixed(3).padStart(7)}`;
  const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  const lines = mine.pairs.flatMap((pair) => {
    const theirs = other.pairs.find((p) => p.route === pair.route);
    const a = results.get(pair.ours);
    const b = theirs && results.get(theirs.ours);
    if (!a || !b) return [];
    return [
      `${pair.route.padEnd(16)}${cell(a.cpuMsPerRequest, b.cpuMsPerRequest, us, 24)}${cell(a.mainThreadCpuMsPerRequest, b.mainThreadCpuMsPerRequest, us, 24)}${cell(a.p99, b.p99, (ms) => ms.toFixed(1), 20)}`,
    ];
  });
  if (lines.length > 0) {
    console.log(
      `${'route'.padEnd(16)}${'process µs/req'.padStart(24)}${'ratio'.padStart(7)}${'API thread µs/req'.padStart(24)}${'ratio'.padStart(7)}${'p99 ms'.padStart(20)}${'ratio'.padStart(7)}`,
    );
    for (const line of lines) console.log(line);
  }
  console.log(
    `idle API thread: ${pct(mine.instance.idle.threads?.main)} ÷ ${pct(other.instance.idle.threads?.main)}; whole process ${pct(mine.instance.idle.process)} ÷ ${pct(other.instance.idle.process)}`,
  );
}

/** The closing table: every checkout's routes against the two per-route goals, then the idle API thread's. */
function printSummary(all: ServePairs[], results: Map<string, Measured>): void {
  console.log(
    `\nissue #40 goals (API thread CPU/req ≥ ${GOALS.apiThreadCpu}× bare Fastify's, p99 ≤ ${GOALS.p99}× bare Fastify's, same run)`,
  );
  const width = Math.max(
    24,
    ...all.flatMap(({ instance, pairs }) => pairs.map((p) => instance.label.length + p.route.length + 4)),
  );
  console.log(
    `${'target'.padEnd(width)}${'API µs/req ours vs Fastify'.padStart(28)}${'ratio'.padStart(8)}${'p99 ms ours vs Fastify'.padStart(24)}${'ratio'.padStart(8)}  goal met?`,
  );
  for (const { instance, pairs } of all) {
    for (const pair of pairs) {
      const g = routeGoals(results, pair);
      if (!g) continue;
      const cpuMet = g.apiThreadCpu !== undefined && g.apiThreadCpu.median >= GOALS.apiThreadCpu;
      const p99Met = g.p99.median <= GOALS.p99;
      const missed = [...(cpuMet ? [] : ['CPU']), ...(p99Met ? [] : ['p99'])];
      const cpu = `${micros(g.ours.mainThreadCpuMsPerRequest)} vs ${micros(g.fastify.mainThreadCpuMsPerRequest)}`;
      const cpuRatio = g.apiThreadCpu ? `${g.apiThreadCpu.median.toFixed(2)}×` : '-';
      console.log(
        `${`${instance.label}: ${pair.route}`.padEnd(width)}${cpu.padStart(28)}${cpuRatio.padStart(8)}${`${g.ours.p99.toFixed(1)} vs ${g.fastify.p99.toFixed(1)}`.padStart(24)}${`${g.p99.median.toFixed(2)}×`.padStart(8)}  ${missed.length === 0 ? 'yes' : `no (${missed.join(', ')})`}`,
      );
    }
  }
  for (const { instance } of all) {
    const main = instance.idle.threads?.main;
    const verdict = main === undefined ? '' : `: ${main <= GOALS.idleApiThread ? 'yes' : 'no'}`;
    console.log(
      `${`${instance.label}: idle API thread`.padEnd(width)}${pct(main).padStart(28)} of a core (goal ≤ ${pct(GOALS.idleApiThread)})${verdict}`,
    );
  }
}

/** The whole `props serve` section (see the file's comment). */
export function printServeSection(results: Map<string, Measured>, all: ServePairs[]): void {
  for (const { instance, pairs } of all) {
    const growth = dataDirGrowth(instance);
    console.log(
      `\n${instance.label} (${BUSY_EVENING} simulated, feed running): data dir grew ${growth.mbPerHour.toFixed(0)} MB/h over the ${growth.seconds.toFixed(0)} s since it settled (requests included)`,
    );
    printIdle(instance);
    // Routes left out by --only are not printed as zeros (nor their tables' headers alone).
    const measured = pairs.filter((p) => results.has(p.ours) && results.has(p.fastify));
    if (measured.length > 0) printRoutes(instance, measured, results);
    printGoals(
      results,
      pairs.flatMap((p): GoalRow[] => [
        [`${instance.label}: ${p.route} ÷ bare Fastify`, p.ours, p.fastify, 0.9],
        [`${instance.label}: ${p.route} ÷ bare Node`, p.ours, p.node, undefined],
      ]),
      52,
    );
    if (measured.length > 0) printRouteGoals(measured, results);
  }
  const [mine, ...others] = all;
  for (const other of others) if (mine) printSideBySide(mine, other, results);
  printSummary(all, results);
}
