import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGameLogStore } from '../../src/history/gameLogs';
import type { GameLog, GameLogStore } from '../../src/history/types';
import { GameLogIndex, gameLogCount } from '../../src/stats/gameLogIndex';
import { type Db, openDb } from '../../src/store/db';

let dir: string;
let db: Db;
let store: GameLogStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'propsfeed-logindex-'));
  db = await openDb({ dataDir: dir });
  store = createGameLogStore(db);
});
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

function log(date: string, value: number, over: Partial<GameLog> = {}): GameLog {
  return {
    sport: 'nba',
    player: 'Nikola Jokić',
    playerKey: 'nikola jokic|denver nuggets',
    team: 'Denver Nuggets',
    opponent: `vs ${date}`,
    home: true,
    date,
    stat: 'points',
    value,
    source: 'recorded',
    ...over,
  };
}

describe('GameLogIndex', () => {
  it('projects from 5 games, not 4, and catches up with new finals and older imports', async () => {
    await store.append(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19'].map((d, i) => log(d, 20 + i)));
    const index = new GameLogIndex(store, gameLogCount(db));
    await index.reload();
    expect(index.get('nba', 'nikola jokic|denver nuggets', 'points')).toBeUndefined();
    const version = index.version;

    await index.refresh();
    expect(index.version).toBe(version);

    // A final recorded today: found among the recent dates.
    await store.append([log('2026-11-20', 30)]);
    await index.refresh();
    expect(index.get('nba', 'nikola jokic|denver nuggets', 'points')).toMatchObject({
      sampleN: 5,
      marketKey: 'nba:points',
    });
    expect(index.version).toBe(version + 1);

    // An import of an older game: the recent dates do not account for it; a full reload does.
    await store.append([log('2026-10-25', 10, { stat: 'rebounds', source: 'import' })]);
    await index.refresh();
    expect(index.player('nba', 'nikola jokic|denver nuggets')?.byStat.get('rebounds')).toHaveLength(1);
    expect(index.player('nba', 'nikola jokic|denver nuggets')?.newestDate).toBe('2026-11-20');
    expect([...index.allPlayers()]).toHaveLength(1);
  });

  it('reads a log it cannot hold (a stat outside the catalog) once, not at every check', async () => {
    const index = new GameLogIndex(store, gameLogCount(db));
    await index.reload();
    await store.append([log('2026-11-20', 3, { stat: 'dunks' })]);
    await index.refresh();
    const version = index.version;
    await index.refresh();
    await index.refresh();
    expect(index.version).toBe(version);
    expect([...index.allPlayers()]).toHaveLength(0);
  });
});
