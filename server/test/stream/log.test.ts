/**
 * The stream event log on its own (SQLite): what it stores of each change (one compressed
 * record per change and sport), that what it gives
 * back for a view is byte for byte the frames the encoder makes for that view, who writes it,
 * how far it reaches, and pruning by age.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Board } from '../../src/board/types';
import { EntryBook, PropOdds } from '../../src/odds';
import { type Db, openDb } from '../../src/store/db';
import { frame, StreamEncoder, type StreamView, streamViewOf } from '../../src/stream/encode';
import { type LoggedEvent, StreamLog, type StreamLogOptions } from '../../src/stream/log';
import type { StreamPosition } from '../../src/stream/window';
import { ViewRegistry, viewKindOf } from '../../src/views';
import { type BoardChange, boardChange } from '../../src/views/boardChanges';
import { buildBoard, type GameSpec, TestBoardSource } from '../helpers/board';

const T0 = Date.parse('2026-11-22T01:00:00.000Z');

// Underdog's -140/+120 gives an edge of about +0.02; the default -115/-105 about -0.03.
const ABOVE = { overOdds: -140, underOdds: 120 };
const BELOW = { overOdds: -115, underOdds: -105 };

function specs(step: number): GameSpec[] {
  return [
    {
      id: 'pp_1',
      aliases: ['ud_9'],
      props: [
        { player: 'Aaron Wilson', stat: 'points', line: 20.5 + (step % 3), ...(step % 2 ? ABOVE : BELOW) },
        { player: 'Ben Cole', stat: 'rebounds', line: 6.5 + (step % 2), ...(step % 2 ? BELOW : ABOVE) },
        ...(step % 2 === 0 ? [{ player: 'Cole Dunn', stat: 'points', line: 4.5, ...ABOVE }] : []),
      ],
    },
    { id: 'pp_2', sport: 'mlb', props: [{ player: 'Carl Diaz', stat: 'hits', line: 0.5 + (step % 2) }] },
    {
      id: 'pp_3',
      live: true,
      props: [{ player: 'Dan Evans', stat: 'points', line: 9.5 + step, liveValue: step }],
    },
  ];
}

let dirs: string[] = [];
let dbs: Db[] = [];
let logs: StreamLog[] = [];
afterEach(async () => {
  for (const log of logs) await log.close();
  for (const db of dbs) await db.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  [dirs, dbs, logs] = [[], [], []];
});

async function setup(opts: Partial<StreamLogOptions> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'propsfeed-streamlog-'));
  dirs.push(dir);
  const db = await openDb({ dataDir: dir });
  dbs.push(db);
  const log = new StreamLog(db, { retainMs: 60_000, writes: () => true, now: () => T0, ...opts });
  logs.push(log);
  const boards: Board[] = [buildBoard(specs(0), T0)];
  const source = new TestBoardSource(boards[0] as Board);
  const encoder = new StreamEncoder(new ViewRegistry(source, undefined, new PropOdds(new EntryBook())));
  const changes: BoardChange[] = [];
  for (let step = 1; step <= 4; step++) {
    const board = buildBoard(specs(step), T0 + step * 1_000);
    changes.push(boardChange(boards.at(-1) as Board, board));
    boards.push(board);
    log.append(changes.at(-1) as BoardChange, encoder);
  }
  await log.flush();
  return { db, log, boards, changes, encoder };
}

/** Every event a view reads from the log after `after` up to `until`, page by page as the hub reads it. */
async function readAll(log: StreamLog, after: StreamPosition, until: number, v: StreamView, pageSize: number) {
  const events: LoggedEvent[] = [];
  for (let at = after; ; ) {
    const page = await log.events(at, until, v, pageSize);
    events.push(...page.events);
    at = page.through;
    if (at.version >= until && at.index === 0) return events;
  }
}

const view = (over: Partial<Parameters<typeof streamViewOf>[0]> = {}): StreamView =>
  streamViewOf({
    kind: viewKindOf(false, true, true),
    delayMs: 0,
    sports: ['mlb', 'nba'],
    stats: null,
    eventId: null,
    player: null,
    minEdge: null,
    ...over,
  });

describe('the stream event log', () => {
  it('gives back, for every view, the bytes the encoder makes for it', async () => {
    const { db, log, boards, changes, encoder } = await setup();
    const views = [
      view(),
      view({ kind: viewKindOf(false, false, false) }),
      view({ kind: viewKindOf(true, false, false), sports: ['nba'] }),
      view({ stats: ['points'] }),
      view({ player: 'aaron wilson' }),
      view({ eventId: 'ud_9', kind: viewKindOf(false, true, false) }),
      view({ eventId: 'pp_3' }),
      view({ eventId: 'pp_' }),
    ];
    // minEdge views at floors that the rows' edges cross from board to board.
    const rowEdges = changes.flatMap((c) =>
      c.events.flatMap((_, i) => {
        const facts = encoder.edgeFacts(c, i);
        return [facts?.now, facts?.before?.edge].filter((e): e is number => e !== undefined);
      }),
    );
    const sorted = [...new Set(rowEdges)].sort((a, b) => a - b);
    for (const floor of [0.01, ...[0.25, 0.5, 0.75].map((at) => sorted[Math.floor(sorted.length * at)] as number)]) {
      views.push(
        view({ minEdge: floor }),
        view({ minEdge: floor, kind: viewKindOf(false, false, true), stats: ['points'] }),
      );
    }
    const from = { version: (boards[0] as Board).version, index: 0 };
    const until = (boards[4] as Board).version;
    const stretched = new StreamLog(db, { retainMs: 60_000, scanEvents: 3, writes: () => true, now: () => T0 });
    logs.push(stretched);
    // The floors matter here: props fall below one (told as removed) and are left out.
    const all = (v: StreamView) => changes.map((c) => encoder.changeBytes(c, v).toString()).join('');
    expect(views.some((v) => v.minEdge !== null && all(v).includes('below_min_edge'))).toBe(true);
    expect(views.some((v) => v.minEdge !== null && all(v).length < all({ ...v, minEdge: null, key: 'x' }).length)).toBe(
      true,
    );
    for (const v of views) {
      const expected = changes.map((c) => encoder.changeBytes(c, v).toString()).join('');
      const framed = (events: LoggedEvent[]) =>
        events.flatMap((e) => (e.json === undefined ? [] : [frame(e.json, `${e.version}.${e.index}`)]));
      const got = framed(await readAll(log, from, until, v, 1_000));
      expect(got.join('')).toBe(expected);
      // Paged from the middle of a change, in stretches of a few logged events: the same tail.
      const mid = { version: (changes[1] as BoardChange).version, index: 1 };
      const tail = changes
        .slice(1)
        .map((c, i) => encoder.changeBytes(c, v, i === 0 ? 1 : 0).toString())
        .join('');
      expect(framed(await readAll(stretched, mid, until, v, 2)).join('')).toBe(tail);
    }
    // Edges exist here, and are stored beside the plain rendering only where they differ.
    const edges = changes.flatMap((c, _) =>
      c.events.map((_e, i) => encoder.eventJson(c, viewKindOf(false, true, true), i)),
    );
    expect(edges.some((json) => json.includes('"edge"'))).toBe(true);
  });

  it('stores each change once, and its events in one compressed record per sport', async () => {
    const { db, changes } = await setup();
    const k = db.kysely;
    const rows = await sql<{ n: number | string }>`select count(*) as n from stream_changes`.execute(k);
    expect(Number(rows.rows[0]?.n)).toBe(4);
    const records = await sql<{
      version: number | string;
      sport: string;
      events: number;
      body: Buffer;
    }>`select version, sport, events, body from stream_records order by version, sport`.execute(k);
    // Each change here has nba and mlb events: two records each.
    expect(records.rows.map((r) => `${r.version} ${r.sport}`)).toEqual(
      changes.flatMap((c) => [`${c.version} mlb`, `${c.version} nba`]),
    );
    const events = records.rows.flatMap((r) => {
      const logged = JSON.parse(brotliDecompressSync(r.body).toString()) as unknown[][];
      expect(logged).toHaveLength(r.events);
      return logged.map(([idx, kind, gameIds, live, , player, , jsonEdges]) => ({
        version: Number(r.version),
        idx,
        kind,
        gameIds,
        live,
        player,
        jsonEdges,
      }));
    });
    expect(events).toHaveLength(changes.reduce((n, c) => n + c.events.length, 0));
    const first = changes[0] as BoardChange;
    const removed = events.find((r) => r.kind === 'prop.removed');
    expect(removed).toMatchObject({ gameIds: '|pp_1|ud_9|', live: 0, player: 'cole dunn', jsonEdges: null });
    expect(events.find((r) => r.gameIds === '|pp_3|')?.live).toBe(1);
    expect(
      events
        .filter((r) => r.version === first.version)
        .map((r) => r.idx)
        .sort((a, b) => Number(a) - Number(b)),
    ).toEqual(first.events.map((_, i) => i + 1));
  });

  it('keeps at most the most events configured, dropping the oldest changes whole', async () => {
    const { db, boards, changes } = await setup();
    const lastTwo = (changes[2] as BoardChange).events.length + (changes[3] as BoardChange).events.length;
    const capped = new StreamLog(db, { retainMs: 60_000, maxEvents: lastTwo, writes: () => true, now: () => T0 });
    logs.push(capped);
    expect(await capped.prune()).toBe(2);
    const v = (step: number) => (boards[step] as Board).version;
    expect(await capped.reachFrom({ version: v(1), index: 0 }, v(4))).toBeUndefined();
    expect(await capped.reachFrom({ version: v(2), index: 0 }, v(4))).toBe(v(4));
    expect(await capped.prune()).toBe(0);
  });

  it('counts the events a view gets over stretches of the log, stopping past the limit', async () => {
    const { db, boards } = await setup();
    const stretched = new StreamLog(db, { retainMs: 60_000, scanEvents: 3, writes: () => true, now: () => T0 });
    logs.push(stretched);
    const from = { version: (boards[0] as Board).version, index: 0 };
    const until = (boards[4] as Board).version;
    for (const v of [view(), view({ player: 'aaron wilson' }), view({ sports: ['mlb'] })]) {
      const shown = (await readAll(stretched, from, until, v, 1_000)).length;
      expect(await stretched.countEvents(from, until, v, 1_000)).toBe(shown);
      expect(await stretched.countEvents(from, until, v, shown - 1)).toBe(shown);
      // From mid-change: the rest of that change counts, not what came before.
      const mid = { version: (boards[2] as Board).version, index: 1 };
      expect(await stretched.countEvents(mid, until, v, 1_000)).toBe(
        (await readAll(stretched, mid, until, v, 7)).length,
      );
    }
  });

  it('is written only where it is told to write', async () => {
    const { db } = await setup({ writes: () => false });
    const rows = await sql<{ n: number | string }>`select count(*) as n from stream_changes`.execute(db.kysely);
    expect(Number(rows.rows[0]?.n)).toBe(0);
  });

  it('reaches an id only through an unbroken run of changes, and prunes by age', async () => {
    let now = T0;
    const { log, boards } = await setup({ now: () => now, retainMs: 2_500 });
    const v = (step: number) => (boards[step] as Board).version;
    expect(await log.reachFrom({ version: v(0), index: 0 }, v(4))).toBe(v(4));
    expect(await log.reachFrom({ version: v(1), index: 2 }, v(3))).toBe(v(3));
    // Never written (before the first change kept), or a change the log does not have.
    expect(await log.reachFrom({ version: v(0) - 1, index: 0 }, v(4))).toBeUndefined();
    expect(await log.reachFrom({ version: v(0), index: 1 }, v(4))).toBeUndefined();
    now = T0 + 5_000;
    // Boards 1 and 2 were fetched more than 2.5 s before: their changes go.
    expect(await log.prune()).toBe(2);
    expect(await log.reachFrom({ version: v(0), index: 0 }, v(4))).toBeUndefined();
    expect(await log.reachFrom({ version: v(2), index: 0 }, v(4))).toBe(v(4));
    expect(await log.countEvents({ version: v(0), index: 0 }, v(4), view(), 100)).toBe(
      (await readAll(log, { version: v(2), index: 0 }, v(4), view(), 100)).length,
    );
  });
});
