/**
 * Every shell command the README and the guides (docs/*.md) show, run as written against the
 * seeded simulator (seed 20261122 at 2026-11-22T01:00Z, as the API reference's examples): each
 * fenced sh/bash block is split into commands, and each one either runs and succeeds or is on
 * SKIPPED below with the reason it cannot run in a test. `props` (however a block spells it:
 * `props`, `pnpm -s props`, `npx -y pnpm@10 -s props`) is the clone's bin, cli/bin/props.js;
 * the default address http://127.0.0.1:8787 is the test's server. The README's SDK snippet runs too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../server/src/store/db';
import { buildSimApp, type SimApp } from '../server/test/board-routes/simSetup';

const repo = fileURLToPath(new URL('..', import.meta.url));
/** The port the documented commands are pointed at (this test's range: 8851-8859). */
const PORT = 8851;
const base = `http://127.0.0.1:${PORT}`;

/** Commands that cannot run in a test, each with its reason; every entry must match a command. */
const SKIPPED: { command: RegExp; reason: string }[] = [
  {
    command: /^npx -y pnpm@10 install && npx -y pnpm@10 (-s props serve|test)$/,
    reason:
      'the set-up itself (an install, then a server that runs until stopped, or the whole suite): .ci/run runs both',
  },
  {
    command: /^npm i (-g )?@propsfeed\//,
    reason: 'installs from the npm registry: .ci/packages installs the packed tarballs',
  },
  {
    command: /^npx -y pnpm@10 install && npx -y pnpm@10 -s sdk:pack$|^npm i \/path\/to\/propsfeed\/propsfeed-sdk-/,
    reason:
      'the SDK from a clone into your own project: sdk/test/package.test.ts runs `pnpm -s sdk:pack` and installs its tarball into fresh ESM and CommonJS projects, .ci/packages the same from the npm registry',
  },
  { command: /^alias props=/, reason: 'this test defines `props` the same way, as the clone’s bin' },
  { command: /^export PROPS_API_KEY=pf_\.\.\.$/, reason: 'a placeholder: this test sets a real key' },
  {
    command: /^export PROPS_(DATABASE|REDIS)_URL=|^PROPS_PORT=880[12] .* serve &$|props keys create .*"try-out"/,
    reason:
      'the deployment try-out: two replicas on the machine’s shared PostgreSQL and Redis; server/test/shared and the stream replica tests run that set-up',
  },
];

interface Command {
  file: string;
  text: string;
}

/** The commands of a Markdown file's fenced sh/bash blocks (indented ones too), continuation lines joined. */
function commandsOf(file: string): Command[] {
  const text = readFileSync(join(repo, file), 'utf8');
  const commands: Command[] = [];
  for (const match of text.matchAll(/^( *)```(?:sh|bash|shell)\n([\s\S]*?)^ *```$/gm)) {
    const indent = match[1]?.length ?? 0;
    const lines = (match[2] ?? '').split('\n').map((line) => line.slice(Math.min(indent, line.search(/\S|$/))));
    const joined = lines.join('\n').replace(/\\\n\s*/g, '');
    for (const raw of joined.split('\n')) {
      // A comment after two spaces is the guide's annotation, not part of the command.
      const line = raw.replace(/\s{2,}#\s.*$/, '').trim();
      if (line === '' || line.startsWith('#')) continue;
      commands.push({ file, text: line });
    }
  }
  return commands;
}

const files = [
  'README.md',
  ...readdirSync(join(repo, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const commands = files.flatMap(commandsOf);
const skipOf = (c: Command) => SKIPPED.find((s) => s.command.test(c.text));

let sim: SimApp;
let work = '';
let key = '';

beforeAll(async () => {
  sim = await buildSimApp();
  await sim.app.listen({ port: PORT, host: '127.0.0.1' });
  key = sim.keys.sharp;
  work = mkdtempSync(join(tmpdir(), 'propsfeed-docs-commands-'));
  // The store `props stats import` writes to, made as `props serve` would have made it.
  await (await openDb({ dataDir: join(work, 'data') })).close();
  // The guide's CSV example, where its command reads it.
  const csv = /```csv\n([\s\S]*?)```/.exec(readFileSync(join(repo, 'docs/server.md'), 'utf8'))?.[1] ?? '';
  writeFileSync(join(work, 'games.csv'), csv);
}, 120_000);

afterAll(async () => {
  await sim?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function run(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const props = `node ${JSON.stringify(join(repo, 'cli/bin/props.js'))}`;
  const script = command
    .replace(/^(npx -y pnpm@10 -s |pnpm -s )props\b/, 'props')
    .replaceAll('http://127.0.0.1:8787', base)
    // The stream never ends: read it for a few seconds.
    .replace(/^curl -N /, 'curl -N --max-time 4 ');
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', `props() { ${props} "$@"; }\n${script}`],
      {
        cwd: work,
        timeout: 90_000,
        env: {
          ...process.env,
          PROPS_API_KEY: key,
          PROPS_BASE_URL: base,
          PROPS_DATA_DIR: join(work, 'data'),
          PROPS_DATABASE_URL: '',
          PROPS_REDIS_URL: '',
          NO_COLOR: '1',
        },
      },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
      },
    );
  });
}

describe('the commands of the README and the guides', () => {
  it('are found, and every skip names a command that exists', () => {
    expect(commands.length).toBeGreaterThan(10);
    for (const skip of SKIPPED) {
      expect(
        commands.some((c) => skip.command.test(c.text)),
        `${skip.command}: no command matches it any more`,
      ).toBe(true);
    }
    // The README's tour shows the commands a new user needs.
    const readme = commands.filter((c) => c.file === 'README.md').map((c) => c.text);
    for (const tour of ['props games', 'props edges', 'props evaluate-slip', 'curl ']) {
      expect(readme.some((c) => c.startsWith(tour))).toBe(true);
    }
  });

  it.each(commands.filter((c) => !skipOf(c)).map((c) => [c.file, c.text] as const))(
    '%s: %s',
    async (_file, text) => {
      const result = await run(text);
      if (text.startsWith('curl -N ')) {
        // curl's "operation timed out" (28) is how a read of an endless stream stops.
        expect(result.code, result.stderr).toBe(28);
        expect(result.stdout).toContain('data: {"type":"snapshot"');
        return;
      }
      expect(result.code, `${result.stderr}\n${result.stdout}`).toBe(0);
      expect(result.stdout.trim(), result.stderr).not.toBe('');
      if (text.startsWith('curl ')) expect(result.stdout).not.toMatch(/"error":/);
    },
    120_000,
  );

  it("runs the README's SDK snippet", async () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const snippet = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(snippet).toContain("from '@propsfeed/sdk'");
    // Beside the SDK's own example, so that it resolves @propsfeed/sdk as that one does.
    const file = join(repo, 'sdk/examples', `readme-${process.pid}.ts`);
    writeFileSync(file, snippet);
    try {
      const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', file],
          { cwd: repo, env: { ...process.env, PROPS_API_KEY: key, PROPS_BASE_URL: base } },
          (err, out) => (err ? reject(err) : resolve({ stdout: out })),
        ),
      );
      expect(stdout.trim().split('\n').length).toBeGreaterThan(0);
      expect(stdout).toMatch(/^\S.* (over|under) \d+(\.\d+)? -?\d/m);
    } finally {
      rmSync(file, { force: true });
    }
  }, 60_000);
});
