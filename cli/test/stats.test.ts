/** `props stats import` end to end: a CSV file into a real store in a temp folder. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_LISTED_PROBLEMS } from '../src/commands/stats';
import { runCli } from '../src/program';
import { capture } from './harness';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'propsfeed-cli-stats-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const storeLine = () => `Store: SQLite ${join(dir, 'data', 'propsfeed.db')}\n`;

/** Runs `props`; stderr without its first line, which names the store (checked on its own below). */
async function props(...argv: string[]) {
  const stdout = capture(false);
  const stderr = capture(false);
  const code = await runCli(argv, { stdout, stderr, env: { PROPS_DATA_DIR: join(dir, 'data') } });
  if (argv.length > 2) expect(stderr.text.startsWith(storeLine())).toBe(true);
  return { code, stdout: stdout.text, stderr: stderr.text.replace(storeLine(), '') };
}

function csv(name: string, rows: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, ['date,sport,player,team,opponent,home_away,stat,value', ...rows].join('\n'));
  return path;
}

describe('props stats import', () => {
  it('imports the rows and says how many; a second import adds none', async () => {
    const file = csv('games.csv', [
      '2026-11-20,nba,Nikola Jokić,DEN,MEM,home,points,31',
      '2026-11-20,nba,Nikola Jokić,DEN,MEM,home,rebounds,14',
    ]);
    expect(await props('stats', 'import', file, '--init')).toEqual({
      code: 0,
      stdout: `Imported 2 rows from ${file} into the game logs.\n`,
      stderr: '',
    });
    expect(await props('stats', 'import', file)).toEqual({
      code: 0,
      stdout: `Imported 0 rows from ${file} into the game logs (2 of 2 were already there).\n`,
      stderr: '',
    });
    expect(JSON.parse((await props('--json', 'stats', 'import', file)).stdout)).toEqual({ file, rows: 2, imported: 0 });
  });

  it('imports nothing from a bad file, lists each problem with its line, and exits 2', async () => {
    const file = csv('bad.csv', [
      '2026-11-20,nba,Nikola Jokić,DEN,MEM,home,points,31',
      '2026-13-01,nba,Nikola Jokić,DEN,MEM,home,points,31',
      '2026-11-19,nba,Nikola Jokić,DEN,MEM,away,touchdowns,1',
    ]);
    const result = await props('stats', 'import', file);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      `${file} was not imported: 2 problems; nothing was imported:`,
      "  line 3: date '2026-13-01' is not a YYYY-MM-DD date",
    ]);
    expect(lines[2]).toMatch(/^ {2}line 4: stat 'touchdowns' is not a nba stat key \(points, /);
    expect(lines.slice(3)).toEqual(['']);
    // Nothing of the good first row went in either.
    const good = csv('good.csv', ['2026-11-20,nba,Nikola Jokić,DEN,MEM,home,points,31']);
    expect((await props('stats', 'import', good, '--init')).stdout).toBe(
      `Imported 1 row from ${good} into the game logs.\n`,
    );
  });

  it('lists at most the first problems of a long bad file', async () => {
    const rows = Array.from(
      { length: MAX_LISTED_PROBLEMS + 5 },
      (_, i) => `2026-11-20,nba,P${i},DEN,MEM,home,points,x`,
    );
    const result = await props('stats', 'import', csv('long.csv', rows));
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(MAX_LISTED_PROBLEMS + 2);
    expect(lines.at(-1)).toBe('  … and 5 more');
  });

  it('refuses to create a store without --init, naming the store it looked for', async () => {
    const file = csv('games.csv', ['2026-11-20,nba,Nikola Jokić,DEN,MEM,home,points,31']);
    const result = await props('stats', 'import', file);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `There is no propsfeed store at SQLite ${join(dir, 'data', 'propsfeed.db')}. Point PROPS_DATA_DIR (or ` +
        'PROPS_DATABASE_URL) at the store your server uses, or pass --init to create a new, empty one there.\n',
    });
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('exits 2 for a missing file or argument', async () => {
    const missing = join(dir, 'nope.csv');
    expect(await props('stats', 'import', missing)).toEqual({
      code: 2,
      stdout: '',
      stderr: `${missing} was not imported: 1 problem; nothing was imported:\n  cannot read ${missing}: no such file\n`,
    });
    expect((await props('stats', 'import')).code).toBe(2);
  });
});
