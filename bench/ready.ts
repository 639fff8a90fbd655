/**
 * `pnpm bench:ready`: how long `props serve` (the README's command: embedded SQLite, simulated
 * books) takes from its spawn to `/readyz` answering ready, on a fresh data dir and on the
 * same data dir started again (a restart: its logs and history are there). Runs the clone's
 * launcher, cli/bin/props.js, as a user does; with `--baseline <checkout>` (e.g. `git worktree
 * add ../base main` and its `pnpm install`) that checkout's launcher too, in turn with this
 * one in each round, so the machine's noise falls on both alike. Prints the median of the
 * rounds, their range, and this checkout's median over the baseline's.
 * Run: `pnpm bench:ready [--rounds 3] [--baseline ../base] [--port 8871]`.
 * Goal (issue #40): ready in seconds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { waitReady } from './serveTargets';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    baseline: { type: 'string' },
    port: { type: 'string', default: '8871' },
  },
});
const ROUNDS = Number(args.rounds);
const PORT = Number(args.port);
/** How long a start may take before the bench gives up on it. */
const TIMEOUT_MS = 180_000;
const POLL_MS = 20;

if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || !Number.isInteger(PORT) || PORT < 1) {
  process.stderr.write('--rounds and --port must be positive whole numbers\n');
  process.exit(2);
}

interface Checkout {
  name: string;
  dir: string;
  fresh: number[];
  restart: number[];
}

const here = fileURLToPath(new URL('../', import.meta.url));
const checkouts: Checkout[] = [{ name: 'this checkout', dir: here, fresh: [], restart: [] }];
if (args.baseline) checkouts.push({ name: 'baseline', dir: resolve(args.baseline), fresh: [], restart: [] });

/** The server and data dir of the start being timed: stopped and removed if the bench is. */
let running: { child: ChildProcess; dataDir: string } | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    running?.child.kill('SIGKILL');
    if (running) rmSync(running.dataDir, { recursive: true, force: true });
    process.exit(130);
  });
}

/** Spawns `props serve` of `dir` on `dataDir`; answers the ms from spawn to /readyz 200, then stops it (SIGINT) and waits for its exit. */
async function timeToReady(dir: string, dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(dir, 'cli/bin/props.js'), 'serve', '--port', String(PORT)], {
    cwd: dir,
    env: { ...process.env, PROPS_DATA_DIR: dataDir, PROPS_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (d: Buffer) => {
    errors += d.toString();
  });
  running = { child, dataDir };
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    await waitReady(`http://127.0.0.1:${PORT}`, {
      timeoutMs: TIMEOUT_MS,
      pollMs: POLL_MS,
      exited: () =>
        child.exitCode === null ? undefined : `props serve in ${dir} exited (${child.exitCode}):\n${errors}`,
    });
    return performance.now() - started;
  } finally {
    child.kill('SIGINT');
    await exited;
    running = undefined;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const summary = (xs: number[]) =>
  `${seconds(median(xs)).padStart(8)}  (${seconds(Math.min(...xs))} – ${seconds(Math.max(...xs))})`;

process.stdout.write(
  `bench:ready ${new Date().toISOString()}: props serve, spawn to /readyz ready, ${ROUNDS} round(s), Node ${process.version}\n` +
    '  (a checkout runs its server built only when server/dist is newer than its sources: `pnpm install` there first)\n',
);
for (let round = 1; round <= ROUNDS; round++) {
  for (const checkout of checkouts) {
    const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-bench-ready-'));
    try {
      checkout.fresh.push(await timeToReady(checkout.dir, dataDir));
      checkout.restart.push(await timeToReady(checkout.dir, dataDir));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    const last = (xs: number[]) => seconds(xs.at(-1) as number);
    process.stdout.write(
      `  round ${round} ${checkout.name}: fresh ${last(checkout.fresh)}, restart ${last(checkout.restart)}\n`,
    );
  }
}
process.stdout.write('\n                 fresh data dir (median, range)    restart (median, range)\n');
for (const c of checkouts) {
  process.stdout.write(`  ${c.name.padEnd(14)} ${summary(c.fresh).padEnd(34)} ${summary(c.restart)}\n`);
}
const [ours, base] = checkouts;
if (ours && base) {
  const ratio = (a: number[], b: number[]) => (median(a) / median(b)).toFixed(2);
  process.stdout.write(
    `  this / baseline: fresh ${ratio(ours.fresh, base.fresh)}, restart ${ratio(ours.restart, base.restart)}\n`,
  );
}
