/** A child process of the abuse tests that reports itself in JSON lines on stdout: its latest line. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** Starts `node --import tsx <script> ...args` (a file beside this one); `latest()` is its last JSON line. */
export function startReporter<T>(
  script: string,
  args: readonly (string | number)[],
  initial: T,
): { child: ChildProcess; latest: () => T } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, script), ...args.map(String)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let latest = initial;
  let buffered = '';
  child.stdout?.on('data', (d) => {
    buffered += String(d);
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    const last = lines.at(-1);
    if (last) latest = JSON.parse(last) as T;
  });
  return { child, latest: () => latest };
}
