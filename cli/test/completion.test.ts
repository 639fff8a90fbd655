/** `props completion`: scripts made from the program, run in the shell they are for. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/program';
import { capture } from './harness';

async function script(shell: string): Promise<{ code: number; text: string; errors: string }> {
  const stdout = capture(false);
  const stderr = capture(false);
  const code = await runCli(['completion', shell], { stdout, stderr, env: {} });
  return { code, text: stdout.text, errors: stderr.text };
}

const dir = mkdtempSync(join(tmpdir(), 'props-completion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash offers for the words typed so far (the last one is being completed). */
function bashOffers(file: string, words: string[]): string[] {
  const typed = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source '${file}'; COMP_WORDS=(${typed}); COMP_CWORD=${words.length - 1}; _props_complete; echo "\${COMPREPLY[*]}"`,
    ],
    { encoding: 'utf8' },
  );
  return out.trim().split(/\s+/).filter(Boolean);
}

describe('props completion', () => {
  it('bash: commands, subcommands, options and option choices', async () => {
    const { code, text } = await script('bash');
    expect(code).toBe(0);
    const file = join(dir, 'props.bash');
    writeFileSync(file, text);
    expect(bashOffers(file, ['props', 'ga'])).toEqual(['games', 'game-props']);
    expect(bashOffers(file, ['props', 'keys', 'cr'])).toEqual(['create']);
    expect(bashOffers(file, ['props', 'keys', 'create', '--tier', ''])).toEqual(['free', 'pro', 'sharp', 'enterprise']);
    expect(bashOffers(file, ['props', 'scan', '--so'])).toEqual(['--sort']);
    expect(bashOffers(file, ['props', 'scan', '--sort', 'l'])).toEqual(['line']);
    // --sport completes sport ids, never file names.
    expect(bashOffers(file, ['props', 'games', '--sport', 'n'])).toEqual(['nba', 'nfl', 'nhl', 'ncaab', 'ncaaf']);
    expect(bashOffers(file, ['props', 'stream', '--sport', 'ml'])).toEqual(['mlb']);
    expect(bashOffers(file, ['props', 'player-props', 'x', '-s', 'w'])).toEqual(['wnba']);
    expect(bashOffers(file, ['props', 'completion', ''])).toEqual(expect.arrayContaining(['--json', '--help']));
  });

  it('zsh loads the bash function through bashcompinit; fish names every command', async () => {
    const zsh = await script('zsh');
    expect(zsh.text).toContain('bashcompinit');
    expect(zsh.text).toContain('complete -o default -F _props_complete props');
    const fish = await script('fish');
    expect(fish.text).toContain("complete -c props -n '__fish_use_subcommand' -a games -d 'today'\\''s games");
    expect(fish.text).toMatch(
      /__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from create list revoke' -a create/,
    );
    expect(fish.text).toContain("-l tier -d 'tier of the key' -xa 'free pro sharp enterprise'");
  });

  it('refuses another shell with a usage error', async () => {
    const { code, errors } = await script('tcsh');
    expect(code).toBe(2);
    expect(errors).toContain('Allowed choices are bash, zsh, fish');
  });
});
