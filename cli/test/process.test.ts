/** The `props` process itself: what it does when the program reading its output goes away. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

describe('the props process', () => {
  it('stops quietly with exit 0 when its reader closes the pipe early (`props scan | head -1`)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', main, 'completion', 'bash'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader is gone before the CLI writes a byte: every write meets EPIPE.
    child.stdout.destroy();
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(errors).toBe('');
    expect(code).toBe(0);
  }, 30_000);
});
