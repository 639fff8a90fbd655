/**
 * The feed on both real books' adapters, polling the msw-served PP_BASE and UD_BASE (one poll
 * per test unless asked again), on an SQLite store of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import type { RunningFeed } from '../../src/board/types';
import { loadConfig } from '../../src/config';
import { startFeed } from '../../src/runtime';
import { type Db, openDb } from '../../src/store/db';
import { PP_BASE, UD_BASE } from './fixtures';

export interface BookFeed {
  feed: RunningFeed;
  db: Db;
  /** Another feed on the same store (a restart), polling once at `nowMs`. */
  restart(nowMs: number): Promise<RunningFeed>;
  close(): Promise<void>;
}

export async function startBookFeed(nowMs: number): Promise<BookFeed> {
  const dir = mkdtempSync(join(tmpdir(), 'propsfeed-books-'));
  const db = await openDb({ dataDir: dir });
  const config = loadConfig({
    PROPS_BOOKS: 'prizepicks,underdog',
    PROPS_PRIZEPICKS_URL: PP_BASE,
    PROPS_UNDERDOG_URL: UD_BASE,
  });
  const start = (at: number) => startFeed({ config, db, now: () => at, pollMs: 3_600_000 });
  const feed = await start(nowMs);
  await vi.waitFor(() => expect(feed.ready()).toBe(true));
  await vi.waitFor(() => expect(feed.current().games.length).toBeGreaterThan(0));
  return {
    feed,
    db,
    restart: start,
    async close() {
      await feed.stop();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
