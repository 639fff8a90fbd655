/**
 * The real recorded book payloads (../shared/books, see SOURCES.md there), found beside the
 * checkout or beside any folder above it, so a git worktree nested deeper finds them too.
 * A user's clone has none: `SHARED_BOOKS` is then undefined and the tests that need them skip.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function find(): string | undefined {
  let dir = join(__dirname, '../../..');
  for (;;) {
    const candidate = join(dirname(dir), 'shared/books');
    if (existsSync(join(candidate, 'SOURCES.md'))) return candidate;
    if (dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
}

export const SHARED_BOOKS = find();

/** Why a suite of real-payload tests runs or skips, for its title. */
export const SHARED_BOOKS_NOTE = SHARED_BOOKS ?? 'skipped: ../shared/books is absent';

export function readSharedBook(name: string): unknown {
  if (!SHARED_BOOKS) throw new Error('../shared/books is absent');
  return JSON.parse(readFileSync(join(SHARED_BOOKS, name), 'utf8'));
}

/** Every recorded payload's file name, sorted. */
export function sharedBookFiles(): string[] {
  return SHARED_BOOKS
    ? readdirSync(SHARED_BOOKS)
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];
}
