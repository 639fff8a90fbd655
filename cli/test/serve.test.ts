/**
 * `props serve`'s suggestion of how to run the CLI, as the user started it, its --sim-time, and
 * what it prints: on a terminal (a pseudo-terminal, util-linux's `script`) a banner first and
 * log lines as text, piped only JSON lines; Ctrl-C says it stops and when it has stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliCommand } from '../src/commands/serve';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const bin = fileURLToPath(new URL('../bin/props.js', import.meta.url));

interface Started {
  child: ChildProcess;
  output(): string;
  /** Resolves once the output matches. */
  until(pattern: RegExp): Promise<void>;
  exited: Promise<number | null>;
}

/** Runs the clone's `props serve` (the README's first command) on a free port and a fresh store; on a pseudo-terminal when `tty`. */
function startServe(dataDir: string, tty: boolean): Started {
  const env = { ...process.env, PROPS_DATA_DIR: dataDir, PROPS_PORT: '0', PROPS_LOG_FORMAT: '', NO_COLOR: '1' };
  // `exec`: `script` runs the command through $SHELL, and a shell left waiting (dash, when SHELL is
  // unset or /bin/sh) takes the terminal's Ctrl-C too and kills itself after the server exits 0.
  const command = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} serve`;
  // `script` runs the command on a pseudo-terminal and copies what it prints, and what it is sent, through.
  const child = tty
    ? spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(process.execPath, [bin, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let errors = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    errors += d.toString();
  });
  // 'close', not 'exit': the last output can still be on its way when the process has exited.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    until: (pattern) =>
      new Promise((resolve, reject) => {
        const check = setInterval(() => {
          if (pattern.test(out)) {
            clearInterval(check);
            resolve();
          }
        }, 50);
        void exited.then((code) => {
          clearInterval(check);
          // The pattern may have come in its last output, after the last check.
          if (pattern.test(out)) resolve();
          else reject(new Error(`props serve exited (${code}) before ${pattern}:\n${out}\n${errors}`));
        });
      }),
  };
}

/** What a terminal shows: each line as last drawn (a progress line is redrawn in place with CR and erase-line). */
function screenLines(raw: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a terminal's escape sequences are what it removes
  const redrawn = /\r(?:\x1b\[K)?/;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: as above
  const escapes = /\x1b\[[0-9;]*[A-Za-z]/g;
  return raw
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => (line.split(redrawn).pop() ?? '').replace(escapes, ''));
}

describe('props serve', () => {
  it('suggests the pnpm script from a clone and the bin name it was run as when installed', () => {
    expect(cliCommand(true)).toBe('npx -y pnpm@10 -s props');
    expect(cliCommand(true, 'propsfeed')).toBe('npx -y pnpm@10 -s props');
    expect(cliCommand(false)).toBe('props');
    expect(cliCommand(false, 'propsfeed')).toBe('propsfeed');
  });

  it('refuses a --sim-time that is not a UTC instant with a sentence and exit code 2, before opening anything', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-simtime-'));
    try {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', main, 'serve', '--port', '0', '--sim-time', 'tonight'],
        {
          env: { ...process.env, PROPS_DATA_DIR: join(dataDir, 'store') },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => {
        errors += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(errors).toMatch(
        /PROPS_SIM_CLOCK: must be an ISO 8601 UTC instant .*such as 2026-11-27T01:30:00Z \(got "tonight"\)/,
      );
      expect(code).toBe(2);
      expect(existsSync(join(dataDir, 'store'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it.concurrent('on a terminal: the banner first, progress, the addresses and demo keys, log lines as text, no JSON; Ctrl-C says stopping, then stopped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-serve-tty-'));
    const serve = startServe(dataDir, true);
    try {
      await serve.until(/Ctrl-C stops it/);
      const lines = screenLines(serve.output()).filter((l) => l.trim() !== '');
      expect(lines[0]).toMatch(
        /^propsfeed is starting on 127\.0\.0\.1 \(a free port\): simulated books, seed \d+, store /,
      );
      expect(serve.output()).toContain('past game logs…');
      expect(serve.output()).toMatch(/replaying today's lines: step 1 of \d+…/);
      const address = lines.find((l) => l.startsWith('propsfeed listening on '))?.slice(23) ?? '';
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines).toContain(`  API    ${address}/api/v1`);
      expect(lines).toContain(`  Docs   ${address}/docs`);
      // The board page's line only when the server serves a page at `/`.
      const page = await fetch(`${address}/`);
      expect(lines.includes(`  Board  ${address}/`)).toBe(
        page.ok && /html/.test(page.headers.get('content-type') ?? ''),
      );
      expect(lines.filter((l) => /^ {2}(free|pro|sharp|enterprise) +pf_\w{32}$/.test(l))).toHaveLength(4);
      expect(lines).toContainEqual(expect.stringMatching(/^ {2}board: [\d,]+ props in \d+ games/));
      // Ctrl-C, typed into the terminal.
      serve.child.stdin?.write('\x03');
      await serve.until(/Stopped\./);
      expect(await serve.exited).toBe(0);
      const all = screenLines(serve.output()).filter((l) => l.trim() !== '');
      expect(all.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
      // Log lines, as text: the feed's among them.
      expect(all).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d info {2}feed polling books=/));
      const stopping = all.findIndex((l) => l.includes('Stopping: finishing the requests in flight'));
      expect(stopping).toBeGreaterThan(0);
      expect(all.at(-1)).toBe('Stopped.');
    } finally {
      serve.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it.concurrent('piped: every line is JSON, the demo keys and addresses among them; SIGINT logs stopping and stopped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-serve-piped-'));
    const serve = startServe(dataDir, false);
    try {
      await serve.until(/"demoKeys"/);
      serve.child.kill('SIGINT');
      expect(await serve.exited).toBe(0);
      const records = serve
        .output()
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l));
      expect(records[0]?.msg).toMatch(/^propsfeed is starting on /);
      expect(records.find((r) => r.stage === 'replay')?.msg).toMatch(
        /^backfill: replaying today's lines in \d+ steps$/,
      );
      const listening = records.find((r) => r.address);
      expect(listening?.docs).toBe(`${listening?.address}/docs`);
      expect(Object.keys(records.find((r) => r.demoKeys)?.demoKeys ?? {})).toEqual([
        'free',
        'pro',
        'sharp',
        'enterprise',
      ]);
      expect(records.slice(-2).map((r) => r.msg)).toEqual([
        'stopping: finishing the requests in flight and saving usage',
        'stopped',
      ]);
    } finally {
      serve.child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
