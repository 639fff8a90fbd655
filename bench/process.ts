/**
 * The benchmarks' two processes: a child that serves every target (the app and its baselines
 * alike) and this one, which drives them with wrk. On Linux with two or more CPUs each
 * is pinned to its own CPU, so the scheduler does not move them about or put both on one CPU:
 * on a shared 2-core machine this roughly halves the run-to-run spread of the ratios.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { requireWrk, type ServerProbe } from './measure';

export const SERVER_CPU = '0';
const DRIVER_CPU = '1';

/** Whether processes can be pinned to CPUs here (Linux, two or more CPUs, taskset installed). */
export function tasksetWorks(): boolean {
  if (process.platform !== 'linux' || availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface BenchServer {
  child: ChildProcess;
  /** The child's CPU seconds so far and its resident memory (Linux), to show how busy each target keeps it. */
  probe: ServerProbe;
  /** Ends the child (SIGTERM) and resolves once it has exited (and written its profile, if any). */
  stop: () => Promise<void>;
  /** The first line the child printed: where its targets listen. */
  firstLine: string;
  /** Whether the two processes are pinned to separate CPUs. */
  pinned: boolean;
}

/**
 * Starts `script args` as the serving child and waits for its first line of stdout; first exits
 * with how to install wrk, which drives the targets, when it is missing.
 */
export async function startBenchServer(
  script: string,
  args: string[],
  options: { cpuProfDir?: string } = {},
): Promise<BenchServer> {
  requireWrk();
  const pinned = tasksetWorks();
  const profiling = options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : [];
  const node = [process.execPath, ...profiling, '--import', 'tsx', script, ...args];
  const [command = process.execPath, ...rest] = pinned ? ['taskset', '-c', SERVER_CPU, ...node] : node;
  const child = spawn(command, rest, { stdio: ['ignore', 'pipe', 'inherit'] });
  if (pinned) execFileSync('taskset', ['-a', '-cp', DRIVER_CPU, String(process.pid)], { stdio: 'ignore' });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
    firstLine,
    pinned,
    probe: probeOf(child.pid),
  };
}

/** Linux's USER_HZ: the unit of utime and stime in /proc stat lines (100 on every mainstream build). */
const TICKS_PER_SECOND = 100;

/** What the benchmarks read from a /proc stat line (a process's or one of its threads'). */
export interface ProcStat {
  /** The command name: a thread's own name where the runtime names its threads (Node 24 does), else the process's. */
  comm: string;
  /** User + system CPU seconds. */
  cpuSeconds: number;
}

/**
 * Parses a line of /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat. The command name sits in
 * parentheses and may itself hold spaces and parentheses, so the fields are counted from its
 * last `)`: state is the first after it, utime and stime the 12th and 13th.
 */
export function parseProcStat(line: string): ProcStat {
  const open = line.indexOf(' (');
  const close = line.lastIndexOf(') ');
  const fields = close > open && open >= 0 ? line.slice(close + 2).split(' ') : [];
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (fields.length < 13 || !Number.isInteger(utime) || !Number.isInteger(stime)) {
    throw new Error(`not a /proc stat line: ${JSON.stringify(line.slice(0, 120))}`);
  }
  return { comm: line.slice(open + 2, close), cpuSeconds: (utime + stime) / TICKS_PER_SECOND };
}

/** One thread's stat (tid = pid: the main thread); undefined once it has exited, or where there is no /proc. */
export function threadStat(pid: number, tid: number): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds of a process from /proc (its exited threads included); undefined where there is no /proc. */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).cpuSeconds;
  } catch {
    return undefined;
  }
}

/** CPU seconds of a process's main thread: in a Node server, its event loop (the API thread). */
export function mainThreadCpuSecondsOf(pid: number | undefined): number | undefined {
  return pid === undefined ? undefined : threadStat(pid, pid)?.cpuSeconds;
}

export interface ThreadCpu extends ProcStat {
  tid: number;
}

/** Every live thread of a process with its name and CPU seconds so far (empty where there is no /proc). */
export function threadsOf(pid: number): ThreadCpu[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tids.flatMap((t) => {
    const stat = threadStat(pid, Number(t));
    return stat ? [{ tid: Number(t), ...stat }] : [];
  });
}

/** How busy each of a process's threads kept a core between two readings of threadsOf (1 = one core). */
export interface ThreadShares {
  /** The main thread (tid = pid). */
  main: number;
  /**
   * The other threads by name, busiest first. Node 20 leaves every thread the process's name:
   * those are one group, `other threads`; Node 24 names its own (V8Worker, libuv-worker) and a
   * Worker's thread after its `name` option (WorkerThread without one).
   */
  groups: Array<{ name: string; threads: number; share: number }>;
  /** The busiest other threads one by one (an ingest worker stands out here even unnamed). */
  busiest: Array<{ tid: number; name: string; share: number }>;
}

/** The label of threads that carry no name of their own (the main thread's, i.e. the process's). */
export const UNNAMED_THREADS = 'other threads';

/**
 * Each thread's CPU between `before` and `after` over `seconds`. A thread started in between
 * counts from zero; one that exited in between is not seen (its CPU stays in the process's).
 */
export function threadShares(
  before: ThreadCpu[],
  after: ThreadCpu[],
  seconds: number,
  mainTid: number,
  busiest = 2,
): ThreadShares {
  const was = new Map(before.map((t) => [t.tid, t.cpuSeconds]));
  const used = after.map((t) => ({ ...t, share: (t.cpuSeconds - (was.get(t.tid) ?? 0)) / seconds }));
  const main = used.find((t) => t.tid === mainTid);
  const others = used.filter((t) => t.tid !== mainTid).sort((a, b) => b.share - a.share || a.tid - b.tid);
  const groups = new Map<string, { name: string; threads: number; share: number }>();
  for (const t of others) {
    const name = t.comm === main?.comm ? UNNAMED_THREADS : t.comm;
    const group = groups.get(name) ?? { name, threads: 0, share: 0 };
    group.threads += 1;
    group.share += t.share;
    groups.set(name, group);
  }
  return {
    main: main?.share ?? 0,
    groups: [...groups.values()].sort((a, b) => b.share - a.share),
    busiest: others.slice(0, busiest).map((t) => ({ tid: t.tid, name: t.comm, share: t.share })),
  };
}

/** `threadShares`' other threads in one line: their total, each name's share (by name) and the busiest threads. */
export function describeOtherThreads(shares: ThreadShares): string {
  const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
  const total = shares.groups.reduce((sum, g) => sum + g.share, 0);
  const shown = shares.groups.filter((g) => g.share >= 0.0005);
  const groups = shown.map((g) => `${g.name}${g.threads > 1 ? ` ×${g.threads}` : ''} ${pct(g.share)}`);
  const quiet = shares.groups.length - shown.length;
  if (quiet > 0) groups.push(`${quiet} more name${quiet > 1 ? 's' : ''} at 0.0 %`);
  const busiest = shares.busiest.map((t) => `tid ${t.tid} (${t.name}) ${pct(t.share)}`);
  return `${pct(total)} [${groups.join(', ')}]; busiest: ${busiest.join(', ') || '-'}`;
}

/** Resident memory of a process in MB from /proc; undefined where there is no /proc. */
export function rssMbOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** What the benchmarks read of a serving child while targets run: the process's CPU, its main thread's, its memory. */
export function probeOf(pid: number | undefined): ServerProbe {
  return {
    cpuSeconds: () => cpuSecondsOf(pid),
    mainThreadCpuSeconds: () => mainThreadCpuSecondsOf(pid),
    rssMb: () => rssMbOf(pid),
  };
}

/** An answer recorded from the API: the headers that are the route's own (not per connection) and its bytes as sent. */
export interface Recorded {
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Bare Node replaying recorded answers: each request gets `answerOf`'s bytes and headers (404
 * when none), nothing else (no parsing, no auth, no counting). Listens on a loopback port.
 */
export async function listenReplaying(
  answerOf: (req: IncomingMessage) => Recorded | undefined,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const answer = answerOf(req);
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { ...answer.headers, 'content-length': answer.body.length });
    res.end(answer.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server };
}
