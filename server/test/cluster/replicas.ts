/**
 * Server replicas as child processes (the real `serve()`, port 0) on the shared engines, for
 * the multi-process tests. Each replica's PostgreSQL and Redis are reached through TCP
 * proxies the test owns, so it can take an engine "down" for the replicas only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStartup } from '../../src/startup/report';

export interface Replica {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the replica wrote, for failure messages. */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const ENTRY = join(import.meta.dirname, 'replica-main.ts');

/**
 * How far the replicas' clock is moved: to 01:30 UTC of today, when the simulator has
 * 20–30 games in play whatever the day, so their lines move every poll. On the real clock, a
 * test waiting for the next line move waited in vain at night (no game in play, pre-game
 * lines moving only at checkpoints minutes apart).
 */
export const REPLICA_CLOCK_OFFSET_MS = (() => {
  const now = Date.now();
  const day = new Date(now);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 1, 30) - now;
})();

/** The replicas' time now. */
export const replicaNow = () => Date.now() + REPLICA_CLOCK_OFFSET_MS;

export async function startReplica(env: Record<string, string>): Promise<Replica> {
  const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-replica-'));
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
    env: {
      ...process.env,
      PROPS_PORT: '0',
      PROPS_DATA_DIR: dataDir,
      PROPS_LOG_LEVEL: 'warn',
      REPLICA_CLOCK_OFFSET_MS: String(REPLICA_CLOCK_OFFSET_MS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const { address } = readStartup(output);
      if (address) {
        child.stdout?.off('data', onData);
        resolve(address);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`replica exited (${code}) before listening:\n${output}`)));
  });
  return {
    url,
    pid: child.pid as number,
    child,
    output: () => output,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      // A replica that does not finish draining in time is stopped outright.
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
