/**
 * The benchmarks' two processes: a child that serves every target (the app and its baselines
 * alike) and this one, which drives them with wrk. On Linux with two or more CPUs each
 * is pinned to its own CPU, so the scheduler does not move them about or put both on one CPU:
 * on a shared 2-core machine this roughly halves the run-to-run spread of the ratios.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import type { ServerProbe } from './measure';

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

/** Starts `script args` as the serving child and waits for its first line of stdout. */
export async function startBenchServer(
  script: string,
  args: string[],
  options: { cpuProfDir?: string } = {},
): Promise<BenchServer> {
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
    probe: { cpuSeconds: () => cpuSecondsOf(child.pid), rssMb: () => rssMbOf(child.pid) },
  };
}

const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a process from /proc; undefined where there is no /proc. */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name: state is the first, utime and stime the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
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
