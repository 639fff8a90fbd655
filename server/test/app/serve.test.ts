/**
 * `serve()` as a user runs it, in a child process: demo keys printed on first start only,
 * SIGTERM drains and saves usage, and a restarted server reports it exactly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { serve } from '../../src/main';

const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-serve-'));
const serveScript = join(import.meta.dirname, '../../src/main.ts');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `serve({ port: 0 })`; resolves with its address and everything it printed once listening. */
async function start(): Promise<{ child: ChildProcess; address: string; output: () => string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { serve } from ${JSON.stringify(serveScript)}; await serve({ port: 0, cli: 'propsfeed' });`,
    ],
    {
      // One real book at a closed loopback port: start-up skips the simulator's backfill, and
      // the feed's failed polls show in /readyz without touching what this test checks.
      env: {
        ...process.env,
        PROPS_DATA_DIR: dataDir,
        PROPS_LOG_LEVEL: 'fatal',
        PROPS_BOOKS: 'prizepicks',
        PROPS_PRIZEPICKS_URL: 'http://127.0.0.1:9',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const address = await new Promise<string>((resolve, reject) => {
    const check = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearInterval(check);
        resolve(m[1]);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(check);
      reject(new Error(`serve exited with ${code}: ${out}`));
    });
  });
  return { child, address, output: () => out };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

describe('serve()', () => {
  it('prints demo keys once, saves usage on SIGTERM and reports it after a restart', async () => {
    const first = await start();
    await expect.poll(() => first.output(), { timeout: 20_000 }).toContain('Docs:');
    const keys = Object.fromEntries(
      [...first.output().matchAll(/^\s+(free|pro|sharp|enterprise)\s+(pf_\w{32})$/gm)].map((m) => [m[1], m[2]]),
    );
    expect(Object.keys(keys).sort()).toEqual(['enterprise', 'free', 'pro', 'sharp']);
    expect(first.output()).toContain(`curl -H "Authorization: Bearer ${keys.sharp}"`);
    // The CLI line repeats how the user runs the CLI (here as the server package's `propsfeed`).
    expect(first.output()).toMatch(/PROPS_API_KEY=pf_\w{32} propsfeed games --sport nba$/m);
    const get = (address: string, path: string) =>
      fetch(`${address}${path}`, { headers: { authorization: `Bearer ${keys.pro}` } });
    for (let i = 0; i < 4; i++) expect((await get(first.address, '/api/v1/sports')).status).toBe(200);
    expect(await stop(first.child)).toBe(0);

    const second = await start();
    const me = await (await get(second.address, '/api/v1/me')).json();
    expect(me.usage.today).toBe(5);
    expect(second.output()).not.toContain('First start');
    expect(await stop(second.child)).toBe(0);
  }, 60_000);

  it('refuses a port in use with a sentence saying how to choose another', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    const config = loadConfig({
      PROPS_DATA_DIR: mkdtempSync(join(dataDir, 'busy-')),
      PROPS_LOG_LEVEL: 'fatal',
      PROPS_BOOKS: 'prizepicks',
      PROPS_PRIZEPICKS_URL: 'http://127.0.0.1:9',
    });
    try {
      const refused = serve({ port }, config);
      await expect(refused).rejects.toThrow(ConfigError);
      await expect(refused).rejects.toThrow(
        `cannot listen on 127.0.0.1:${port}: the port is in use (another server already running?). Stop it, or choose another port with --port or PROPS_PORT.`,
      );
    } finally {
      holder.close();
    }
  }, 30_000);
});
