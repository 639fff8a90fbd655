/**
 * `serve()` as a user runs it, in a child process of its own (its own event loop, file
 * descriptors and signals): what the tests that restart, flood or kill a server start from.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Tier } from '@propsfeed/contract';
import { readStartup } from '../../src/startup/report';

const serveScript = join(import.meta.dirname, '../../src/main.ts');

export interface ServeChild {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  address: string;
  port: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** The demo keys of a first start, by tier (empty after a restart). */
  demoKeys(): Partial<Record<Tier, string>>;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL; resolves once it is gone. */
  kill(): Promise<void>;
}

/**
 * Starts `serve({ port: 0 })` with `env` over the test's environment; resolves once it
 * listens and, on a first start (an empty store), has printed its demo keys. `clockAt` (ISO
 * time) starts the simulated world at that instant (PROPS_SIM_CLOCK); `clockOffsetMs` moves
 * the whole process clock (serve()'s `now`) that far from the real one instead, as the
 * multi-process tests do. `script`: a module that calls
 * `serve` itself (with options only a test gives, such as a faster clock).
 */
export async function startServeChild(
  env: Record<string, string>,
  firstStart = true,
  opts: { clockAt?: string; clockOffsetMs?: number; script?: string } = {},
): Promise<ServeChild> {
  if (opts.clockAt !== undefined && Number.isNaN(Date.parse(opts.clockAt))) throw new Error(`clockAt ${opts.clockAt}`);
  const offset = String(opts.clockOffsetMs ?? 0);
  const now =
    offset === '0' ? 'const now = undefined;' : `const offset = ${offset}; const now = () => Date.now() + offset;`;
  const args = opts.script
    ? ['--import', 'tsx', opts.script]
    : [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { serve } from ${JSON.stringify(serveScript)}; ${now} await serve({ port: 0, cli: 'propsfeed', ...(now ? { now } : {}) });`,
      ];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      PROPS_LOG_LEVEL: 'fatal',
      ...(opts.clockAt !== undefined ? { PROPS_SIM_CLOCK: opts.clockAt } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const address = await new Promise<string>((resolve, reject) => {
    const check = setInterval(() => {
      // Piped, serve prints JSON lines; a first start prints its demo keys right after its address.
      const { address, demoKeys } = readStartup(out);
      if (address && (!firstStart || demoKeys)) {
        clearInterval(check);
        resolve(address);
      }
    }, 25);
    void exited.then((code) => {
      clearInterval(check);
      reject(new Error(`serve exited with ${code}: ${out}`));
    });
  });
  const gone = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    child,
    address,
    port: Number(new URL(address).port),
    output: () => out,
    demoKeys: () => (readStartup(out).demoKeys ?? {}) as Partial<Record<Tier, string>>,
    stop: () => gone('SIGTERM'),
    async kill() {
      await gone('SIGKILL');
    },
  };
}
