/**
 * `pnpm bench`'s targets on `props serve` itself, as users run it: its live simulated feed
 * (seeded) at the busiest simulated hour, an enterprise bench key in its store. Beside it, a
 * replay process: bare Fastify (and bare node:http, as context) sending the bytes and headers
 * `props serve` answered, recorded from it once it is ready. Both are pinned to the server CPU;
 * their CPU is read per process and per main thread (`props serve`'s API thread), so each
 * target's CPU % and CPU per request are its own.
 *
 * `--serve-from <dir>` also starts `props serve` from another checkout (a `git worktree` of
 * main, say) in the same run, to compare a change side by side with what it changes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { issueKey as IssueKey } from '@propsfeed/server/keys';
import type { openStore as OpenStore } from '@propsfeed/server/store';
import type { ServerProbe, Target } from './measure';
import {
  cpuSecondsOf,
  listenReplaying,
  probeOf,
  type Recorded,
  SERVER_CPU,
  type ThreadShares,
  tasksetWorks,
  threadShares,
  threadsOf,
} from './process';

/** A Saturday evening in the simulated world (seed 20261122): NBA and NHL games live, lines moving every poll. */
export const BUSY_EVENING = process.env.BENCH_SIM_CLOCK ?? '2026-11-22T01:30:00Z';

/** Seconds `props serve` runs before it is measured: its first minute holds the backfill. */
export const SETTLE_SECONDS = Number(process.env.BENCH_SERVE_SETTLE_SECONDS ?? 45);

/** The routes measured on `props serve`, each replayed by the baselines under the same path. */
export const SERVE_ROUTES = [
  { name: '/me', path: '/api/v1/me', encoding: 'identity' },
  { name: '/games', path: '/api/v1/games?sport=nba', encoding: 'identity' },
  { name: 'NBA scan plain', path: '/api/v1/props?sport=nba&limit=5000', encoding: 'identity' },
  { name: 'NBA scan gzip', path: '/api/v1/props?sport=nba&limit=5000', encoding: 'gzip' },
] as const;

/** Headers a server sets per connection or per response, which each server sends its own of. */
const OWN_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** GET `url` as wrk will, keeping the body's bytes as sent (fetch would decompress them). */
export function record(url: string, headers: Record<string, string>): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        if (res.statusCode !== 200) {
          reject(new Error(`${url} answered ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`));
          return;
        }
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (!OWN_HEADERS.has(name) && typeof value === 'string') kept[name] = value;
        }
        resolve({ headers: kept, body: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}

interface Child {
  child: ChildProcess;
  probe: ServerProbe;
  stop(): Promise<void>;
}

/** Spawns node `args` pinned to the server CPU (when pinning works), optionally under --cpu-prof. */
function spawnPinned(args: string[], env: NodeJS.ProcessEnv, cwd: string, cpuProfDir?: string): Child {
  const profiling = cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : [];
  const node = [process.execPath, ...profiling, ...args];
  const [command = process.execPath, ...rest] = tasksetWorks() ? ['taskset', '-c', SERVER_CPU, ...node] : node;
  const child = spawn(command, rest, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return {
    child,
    probe: probeOf(child.pid),
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** Resolves with the first match of `pattern` in the child's output; rejects if it exits first. */
function waitForOutput(child: ChildProcess, pattern: RegExp, what: string): Promise<string> {
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += String(d);
      const m = pattern.exec(out);
      if (m) {
        child.stdout?.off('data', onData);
        resolve(m[1] ?? m[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => {
      out += String(d);
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}: ${out.slice(-2000)}`)));
  });
}

/**
 * Resolves once `${api}/readyz` answers 200, asking every `pollMs`; rejects after `timeoutMs`,
 * or at once when `exited` says why the server is gone.
 */
export async function waitReady(
  api: string,
  opts: { timeoutMs?: number; pollMs?: number; exited?: () => string | undefined } = {},
): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ready = await new Promise<boolean>((done) => {
      get(`${api}/readyz`, (res) => {
        res.resume();
        done(res.statusCode === 200);
      }).on('error', () => done(false));
    });
    if (ready) return;
    const gone = opts.exited?.();
    if (gone !== undefined) throw new Error(gone);
    if (Date.now() > until) throw new Error(`${api} was not ready after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 250));
  }
}

/** Seconds `props serve` is watched with no request after settling (`BENCH_SERVE_IDLE_SECONDS`). */
export const IDLE_SECONDS = Number(process.env.BENCH_SERVE_IDLE_SECONDS ?? 20);

/** A process's CPU with no request: the whole process's share of a core and each thread's. */
export interface IdleCpu {
  /** The whole process (1 = one core), threads that exited meanwhile included. */
  process: number | undefined;
  /** Its main thread (the API thread) and the others, where /proc shows threads. */
  threads: ThreadShares | undefined;
}

/** How busy a process is over `ms` with no request, as a whole and thread by thread. */
async function idleCpu(pid: number | undefined, ms: number): Promise<IdleCpu> {
  if (pid === undefined) return { process: undefined, threads: undefined };
  const before = { process: cpuSecondsOf(pid), threads: threadsOf(pid) };
  const startedAt = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const after = { process: cpuSecondsOf(pid), threads: threadsOf(pid) };
  const seconds = (performance.now() - startedAt) / 1000;
  return {
    process:
      before.process === undefined || after.process === undefined
        ? undefined
        : (after.process - before.process) / seconds,
    threads: after.threads.length > 0 ? threadShares(before.threads, after.threads, seconds, pid) : undefined,
  };
}

/** Bytes of the files under `dir` (the data dir: SQLite's database, WAL and whatever else). */
function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    try {
      total += entry.isDirectory() ? dirBytes(path) : statSync(path).size;
    } catch {
      // A file removed while it was listed (a WAL checkpoint) counts as nothing.
    }
  }
  return total;
}

export interface ServeInstance {
  /** What it is in the tables: `props serve` or `props serve (main)` etc. */
  label: string;
  api: string;
  key: string;
  child: Child;
  dataDir: string;
  /** Its CPU with no request, after the settling period (the feed running). */
  idle: IdleCpu;
  /** Each route's answer, recorded from it. */
  answers: Map<string, Recorded>;
  /** The data dir's size once settled, and when: its growth per hour is read against it at the end. */
  settled: { bytes: number; at: number };
}

/** The data dir's growth since it settled, in MB per hour of real (and simulated) time. */
export function dataDirGrowth(instance: ServeInstance): { mbPerHour: number; seconds: number } {
  const seconds = (Date.now() - instance.settled.at) / 1000;
  const mb = (dirBytes(instance.dataDir) - instance.settled.bytes) / 1024 / 1024;
  return { mbPerHour: seconds > 0 ? (mb * 3600) / seconds : 0, seconds };
}

/**
 * Starts `props serve` from the checkout at `root` (its server/src/main.ts), at the busy
 * hour, with a fresh data dir holding an enterprise key with limits a benchmark never meets.
 */
export async function startServe(
  root: string,
  label: string,
  options: { cpuProfDir?: string } = {},
): Promise<ServeInstance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-bench-serve-'));
  // The key is issued by the checkout's own store code: its migrations are the ones its server expects.
  const module = (path: string) => import(pathToFileURL(join(resolve(root), path)).href);
  const { openStore } = (await module('server/src/store/kyselyStore.ts')) as { openStore: typeof OpenStore };
  const { issueKey } = (await module('server/src/keys/issue.ts')) as { issueKey: typeof IssueKey };
  const store = await openStore({ PROPS_DATA_DIR: dataDir, PROPS_DATABASE_URL: undefined });
  const { created } = await issueKey(store, {
    tier: 'enterprise',
    label: 'bench',
    rpm: 1_000_000_000,
    rpd: 1_000_000_000,
    scanLimit: 5000,
  });
  await store.close();
  const main = join(resolve(root), 'server/src/main.ts');
  const clock = Date.parse(BUSY_EVENING);
  if (Number.isNaN(clock)) throw new Error(`BENCH_SIM_CLOCK is not an ISO time: ${BUSY_EVENING}`);
  // serve()'s `now` runs the simulated world from the busy hour on; PROPS_SIM_CLOCK is the same
  // for checkouts that read it.
  const script = `import { serve } from ${JSON.stringify(main)}; const offset = ${clock} - Date.now(); await serve({ port: 0, now: () => Date.now() + offset });`;
  const child = spawnPinned(
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { ...process.env, PROPS_DATA_DIR: dataDir, PROPS_SIM_CLOCK: BUSY_EVENING, PROPS_LOG_LEVEL: 'warn' },
    join(resolve(root), 'server'),
    options.cpuProfDir,
  );
  // Its text line (older checkouts) or its JSON line's message alike.
  const api = await waitForOutput(child.child, /listening on (http:\/\/[^\s"]+)/, label);
  await waitReady(api);
  // The first minute holds the backfill: let it pass, so the targets see the feed's steady state.
  await new Promise((r) => setTimeout(r, SETTLE_SECONDS * 1000));
  const settled = { bytes: dirBytes(dataDir), at: Date.now() };
  const auth = { authorization: `Bearer ${created.key}` };
  const answers = new Map<string, Recorded>();
  for (const route of SERVE_ROUTES) {
    answers.set(route.name, await record(`${api}${route.path}`, { ...auth, 'accept-encoding': route.encoding }));
  }
  return {
    label,
    api,
    key: created.key,
    child,
    dataDir,
    idle: await idleCpu(child.child.pid, IDLE_SECONDS * 1000),
    answers,
    settled,
  };
}

export async function stopServe(instance: ServeInstance): Promise<void> {
  await instance.child.stop();
  rmSync(instance.dataDir, { recursive: true, force: true });
}

/** The replay process: bare Fastify and bare node:http sending recorded answers by path. */
export interface Replay {
  fastify: string;
  node: string;
  child: Child;
}

/** Starts the replay process on `answers` (route name → answer), each served at `/<index>`. */
export async function startReplay(answers: Recorded[]): Promise<Replay> {
  const dir = mkdtempSync(join(tmpdir(), 'propsfeed-bench-replay-'));
  const file = join(dir, 'answers.json');
  writeFileSync(file, JSON.stringify(answers.map((a) => ({ headers: a.headers, body: a.body.toString('base64') }))));
  const child = spawnPinned(
    ['--import', 'tsx', join(import.meta.dirname, 'serveTargets.ts'), '--replay', file],
    process.env,
    process.cwd(),
  );
  const line = await waitForOutput(child.child, /^(\{.*\})$/m, 'the replay process');
  rmSync(dir, { recursive: true, force: true });
  const { fastify, node } = JSON.parse(line) as { fastify: string; node: string };
  return { fastify, node, child };
}

async function serveReplays(file: string): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const answers = (
    JSON.parse(readFileSync(file, 'utf8')) as Array<{ headers: Record<string, string>; body: string }>
  ).map((a) => ({ headers: a.headers, body: Buffer.from(a.body, 'base64') }));
  const bare = Fastify();
  answers.forEach((answer, i) => {
    bare.get(`/${i}`, async (_request, reply) => reply.headers(answer.headers).send(answer.body));
  });
  const fastify = await bare.listen({ port: 0, host: '127.0.0.1' });
  const { url, server: node } = await listenReplaying((req) => answers[Number(req.url?.slice(1))]);
  process.stdout.write(`${JSON.stringify({ fastify, node: url })}\n`);
  process.once('SIGTERM', async () => {
    await bare.close();
    node.close();
    process.exit(0);
  });
}

/** One route's target names: on `props serve` and on its two replays. */
export interface ServePair {
  route: string;
  ours: string;
  fastify: string;
  node: string;
}

/** A `props serve` and its routes' targets, for the report (bench/serveReport.ts). */
export interface ServePairs {
  instance: ServeInstance;
  pairs: ServePair[];
}

/** wrk targets for one `props serve` and its replays (the replay's index i is answers[i]). */
export function serveTargets(
  instance: ServeInstance,
  replay: Replay,
  firstIndex: number,
): { targets: Target[]; pairs: ServePair[] } {
  const targets: Target[] = [];
  const pairs: ServePair[] = [];
  SERVE_ROUTES.forEach((route, i) => {
    const headers = { authorization: `Bearer ${instance.key}`, 'accept-encoding': route.encoding };
    const ours = `${instance.label}: ${route.name}`;
    const fastify = `bare Fastify replaying ${instance.label}: ${route.name}`;
    const node = `bare Node replaying ${instance.label}: ${route.name}`;
    targets.push(
      { name: fastify, url: `${replay.fastify}/${firstIndex + i}`, headers, probe: replay.child.probe },
      { name: ours, url: `${instance.api}${route.path}`, headers, probe: instance.child.probe },
      { name: node, url: `${replay.node}/${firstIndex + i}`, headers, probe: replay.child.probe },
    );
    pairs.push({ route: route.name, ours, fastify, node });
  });
  return { targets, pairs };
}

if (process.argv.includes('--replay')) {
  const file = process.argv[process.argv.indexOf('--replay') + 1];
  if (!file) throw new Error('--replay needs a file');
  await serveReplays(file);
}
