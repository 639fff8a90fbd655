/** `props serve`'s suggestion of how to run the CLI, as the user started it, and its --sim-time. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliCommand } from '../src/commands/serve';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

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
});
