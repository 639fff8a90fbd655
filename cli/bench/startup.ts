/**
 * `pnpm bench:cli`: how long the built `props` takes, start to exit, as a user runs it: `props
 * --version`, and `props games` against a local server. Each command runs once per round, in
 * turn (so the machine's noise falls on all alike); printed hyperfine-style with the median,
 * beside a bare `node` start and the CLI run from source through tsx, measured in the same run.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const WARMUP = 2;
const repo = fileURLToPath(new URL('../../', import.meta.url));
const cliDir = join(repo, 'cli');
const bundle = join(cliDir, 'dist', 'props.js');

interface Command {
  name: string;
  argv: string[];
  /** The goal, in ms, when this command has one. */
  goalMs?: number;
  /** Fewer rounds for the slow from-source runs, which only give the before figure. */
  rounds?: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}

/** `props serve` from source on a free port and a fresh data folder; answers its address and sharp demo key. */
async function startServer(dataDir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/src/main.ts', 'serve', '--port', String(port)], {
    cwd: repo,
    env: { ...process.env, PROPS_DATA_DIR: dataDir, PROPS_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let printed = '';
  child.stdout.on('data', (d) => {
    printed += String(d);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    // Piped, serve prints JSON lines: the demo keys are one line's `demoKeys`.
    const key = /"demoKeys":\{[^}]*"sharp":"(pf_\w+)"/.exec(printed)?.[1];
    if (ready && key) return { child, baseUrl, key };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  throw new Error(`props serve did not become ready:\n${printed}`);
}

function runOnce(command: Command, env: NodeJS.ProcessEnv): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(command.argv[0] as string, command.argv.slice(1), { cwd: repo, env, stdio: 'pipe' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${command.name} exited ${result.status}: ${String(result.stderr).slice(0, 500)}`);
  }
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const stddev = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const ms = (x: number) => `${x.toFixed(1).padStart(7)} ms`;

function report(index: number, command: Command, times: number[], baselineMedian: number): void {
  const goal =
    command.goalMs === undefined
      ? ''
      : `    goal < ${command.goalMs} ms: ${median(times) < command.goalMs ? 'met' : 'NOT MET'}`;
  console.log(`Benchmark ${index}: ${command.name}`);
  console.log(`  Time (median):     ${ms(median(times))}${goal}`);
  console.log(`  Time (mean ± σ):   ${ms(mean(times))} ± ${ms(stddev(times)).trim()}`);
  console.log(
    `  Range (min … max): ${ms(Math.min(...times))} … ${ms(Math.max(...times)).trim()}    ${times.length} runs`,
  );
  console.log(`  ${(median(times) / baselineMedian).toFixed(2)} × a bare node start\n`);
}

async function main(): Promise<void> {
  execFileSync(join(cliDir, 'node_modules', '.bin', 'tsup'), [], { cwd: cliDir, stdio: 'ignore' });
  const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-bench-cli-'));
  const configHome = mkdtempSync(join(tmpdir(), 'propsfeed-bench-cli-config-'));
  const server = await startServer(dataDir);
  try {
    const env = {
      ...process.env,
      PROPS_BASE_URL: server.baseUrl,
      PROPS_API_KEY: server.key,
      XDG_CONFIG_HOME: configHome,
      NO_COLOR: '1',
    };
    const node = process.execPath;
    const commands: Command[] = [
      { name: 'node -e 0 (baseline: a bare node start)', argv: [node, '-e', '0'] },
      { name: 'props --version', argv: [node, bundle, '--version'], goalMs: 300 },
      { name: 'props games (local server)', argv: [node, bundle, 'games'], goalMs: 500 },
      {
        name: 'props --version from source through tsx (before)',
        argv: [node, '--import', 'tsx', 'cli/src/main.ts', '--version'],
        rounds: 3,
      },
      {
        name: 'props games from source through tsx (before)',
        argv: [node, '--import', 'tsx', 'cli/src/main.ts', 'games'],
        rounds: 3,
      },
    ];
    for (const command of commands) for (let i = 0; i < WARMUP; i++) runOnce(command, env);
    const times = commands.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      commands.forEach((command, i) => {
        if (round < (command.rounds ?? ROUNDS)) times[i]?.push(runOnce(command, env));
      });
    }
    const baseline = median(times[0] as number[]);
    console.log(`props start-up, ${ROUNDS} rounds (each command once per round, after ${WARMUP} warm-up runs)\n`);
    commands.forEach((command, i) => {
      report(i + 1, command, times[i] as number[], baseline);
    });
    const [, version, games, versionBefore, gamesBefore] = times.map((t) => median(t));
    console.log('Summary');
    console.log(
      `  props --version ran ${((versionBefore as number) / (version as number)).toFixed(1)} × faster than from source`,
    );
    console.log(
      `  props games ran ${((gamesBefore as number) / (games as number)).toFixed(1)} × faster than from source`,
    );
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(configHome, { recursive: true, force: true });
  }
}

await main();
