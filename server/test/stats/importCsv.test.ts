import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGameLogStore } from '../../src/history/gameLogs';
import { CsvImportError, importGameLogCsv } from '../../src/stats/importCsv';
import { openDb } from '../../src/store/db';

let dir: string;
const config = () => ({ PROPS_DATA_DIR: join(dir, 'data'), PROPS_DATABASE_URL: undefined });

function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function storedLogs(playerKey: string) {
  const db = await openDb({ dataDir: config().PROPS_DATA_DIR });
  try {
    return await createGameLogStore(db).forPlayer({ sport: 'nba', playerKey });
  } finally {
    await db.close();
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'propsfeed-import-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const header = 'date,sport,player,team,opponent,home_away,stat,value';

describe('importGameLogCsv', () => {
  it('imports every row under the books’ player key and full team names; a second import adds nothing', async () => {
    const path = file('ok.csv', [
      header,
      '2026-11-20,nba,Nikola Jokić,DEN,MEM,home,points,31',
      '2026-11-18,nba,Nikola Jokić,DEN,LAL,away,points,27',
      '2026-11-18,nba,Nikola Jokić,DEN,LAL,away,rebounds,14',
    ]);
    expect(await importGameLogCsv(path, config())).toEqual({ file: path, rows: 3, imported: 3 });
    expect(await storedLogs('nikola jokic|denver nuggets')).toEqual([
      {
        sport: 'nba',
        player: 'Nikola Jokić',
        playerKey: 'nikola jokic|denver nuggets',
        team: 'Denver Nuggets',
        opponent: 'Memphis Grizzlies',
        home: true,
        date: '2026-11-20',
        stat: 'points',
        value: 31,
        source: 'import',
      },
      expect.objectContaining({ date: '2026-11-18', stat: 'points', value: 27, home: false }),
      expect.objectContaining({ date: '2026-11-18', stat: 'rebounds', value: 14 }),
    ]);
    expect(await importGameLogCsv(path, config())).toEqual({ file: path, rows: 3, imported: 0 });
  });

  it('imports nothing from a file with a bad row, and says which', async () => {
    const path = file('bad.csv', [
      header,
      '2026-11-20,nba,Nikola Jokić,DEN,MEM,home,points,31',
      '2026-11-19,nba,Nikola Jokić,DEN,MEM,home,points,lots',
    ]);
    const err = await importGameLogCsv(path, config()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CsvImportError);
    expect((err as CsvImportError).message).toBe(`${path} was not imported: 1 problem`);
    expect((err as CsvImportError).errors).toEqual(["line 3: value 'lots' is not a number"]);
    expect(await storedLogs('nikola jokic|denver nuggets')).toEqual([]);
  });

  it('says so when the file cannot be read', async () => {
    const missing = join(dir, 'nope.csv');
    await expect(importGameLogCsv(missing, config())).rejects.toMatchObject({
      errors: [`cannot read ${missing}: no such file`],
    });
  });
});
