/**
 * The clone's launcher (cli/bin/props.js) runs a bundle in place of its source only when every
 * file of the bundle is newer than every source it is made from: the rule, on a folder whose
 * modification times the test sets.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

type BundleIsFresh = (repo: string, bundle: string[], sources: string[]) => boolean;
const { bundleIsFresh } = (await import(
  pathToFileURL(fileURLToPath(new URL('../bin/fresh.js', import.meta.url))).href
)) as { bundleIsFresh: BundleIsFresh };

const T0 = new Date('2026-11-29T00:00:00Z').getTime() / 1000;
let repo: string;

/** Writes `path` under the test's folder, modified `seconds` after T0. */
function file(path: string, seconds: number): void {
  const full = join(repo, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, '');
  utimesSync(full, T0 + seconds, T0 + seconds);
}

/** Sets a folder's own modification time (creating a file in it moves it to now). */
function folder(path: string, seconds: number): void {
  utimesSync(join(repo, path), T0 + seconds, T0 + seconds);
}

const BUNDLE = ['dist/index.js', 'dist/worker.js'];
const SOURCES = ['src', 'package.json'];

beforeEach(() => {
  repo = `${mkdtempSync(join(tmpdir(), 'propsfeed-launcher-'))}/`;
  file('src/index.ts', 0);
  file('src/deep/worker.ts', 0);
  file('package.json', 0);
  file('dist/index.js', 10);
  file('dist/worker.js', 10);
  for (const path of ['src/deep', 'src']) folder(path, 0);
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('the launcher runs a bundle', () => {
  it('when every file of it is newer than every source', () => {
    expect(bundleIsFresh(repo, BUNDLE, SOURCES)).toBe(true);
  });

  it('not when a source deep in a folder is newer', () => {
    file('src/deep/worker.ts', 20);
    folder('src/deep', 0);
    expect(bundleIsFresh(repo, BUNDLE, SOURCES)).toBe(false);
  });

  it('not when one of its files is older than a source, or missing', () => {
    file('dist/worker.js', -10);
    expect(bundleIsFresh(repo, BUNDLE, SOURCES)).toBe(false);
    rmSync(join(repo, 'dist/worker.js'));
    expect(bundleIsFresh(repo, BUNDLE, SOURCES)).toBe(false);
  });

  it('whatever the installed packages in a source folder (a package has its own times)', () => {
    file('src/node_modules/some-package/index.js', 20);
    folder('src/node_modules/some-package', 0);
    folder('src/node_modules', 0);
    folder('src', 0);
    expect(bundleIsFresh(repo, BUNDLE, SOURCES)).toBe(true);
  });
});
