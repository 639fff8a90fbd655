/** `props serve`'s suggestion of how to run the CLI, as the user started it. */
import { describe, expect, it } from 'vitest';
import { cliCommand } from '../src/commands/serve';

describe('props serve', () => {
  it('suggests the pnpm script from a clone and the bin name it was run as when installed', () => {
    expect(cliCommand(true)).toBe('npx -y pnpm@10 -s props');
    expect(cliCommand(true, 'propsfeed')).toBe('npx -y pnpm@10 -s props');
    expect(cliCommand(false)).toBe('props');
    expect(cliCommand(false, 'propsfeed')).toBe('propsfeed');
  });
});
