/**
 * Resuming from the stored stream event log, on SQLite and on PostgreSQL: a client away longer
 * than the in-memory window (a few seconds here) gets exactly the events after its id that
 * match its view, with the ids and bytes an uninterrupted stream gave, then the live changes;
 * the free tier's delayed view likewise, never ahead of its delay; an id older than the log
 * (pruned) or a gap larger than a replay sends starts over with a reset snapshot.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Board } from '../../src/board/types';
import { boardChange } from '../../src/views/boardChanges';
import { buildTestApp, type TestApp, type TestAppOptions } from '../helpers/app';
import { buildBoard, type GameSpec, manyProps, TestBoardSource } from '../helpers/board';
import { createTestSchema, enginesAvailable, type TestSchema } from '../shared/engines';
import { openStream, type ReceivedEvent, type SseClient } from './sseClient';

const T0 = Date.parse('2026-11-22T01:00:00.000Z');
const postgres = await enginesAvailable({ postgres: true });

// Underdog's -140/+120 gives an edge of about +0.02, the default -115/-105 about -0.03: Aaron's
// rises above and falls below a minEdge of 0.01 from one board to the next.
const ABOVE = { overOdds: -140, underOdds: 120 };
const BELOW = { overOdds: -115, underOdds: -105 };

function specs(step: number): GameSpec[] {
  return [
    {
      id: 'pp_1',
      props: [
        { player: 'Aaron Wilson', stat: 'points', line: 20.5 + (step % 3), ...(step % 2 ? ABOVE : BELOW) },
        { player: 'Aaron Wilson', stat: 'rebounds', line: 7.5 + (step % 2) },
        { player: 'Ben Cole', stat: 'points', line: 12.5 + (step % 2) },
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

const versionOf = (e: ReceivedEvent) => Number(e.id?.split('.')[0]);
const reached = (events: ReceivedEvent[], version: number) => events.some((e) => versionOf(e) >= version);
/** Changes as sent: id and the data's bytes. */
const changesOf = (events: ReceivedEvent[]) =>
  events.filter((e) => e.data.type !== 'snapshot' && e.data.type !== 'heartbeat').map((e) => `${e.id} ${e.raw}`);

/** What a client cut right after the first event of the last change it got two or more events of had received. */
function cutMidChange(events: ReceivedEvent[]): ReceivedEvent[] {
  for (let i = events.length - 2; i >= 0; i--) {
    const [a, b] = [events[i] as ReceivedEvent, events[i + 1] as ReceivedEvent];
    if (a.data.type !== 'snapshot' && a.id && b.id && versionOf(a) === versionOf(b)) return events.slice(0, i + 1);
  }
  return events;
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const engines = [
  { engine: 'sqlite', skip: false },
  { engine: 'postgres', skip: !postgres },
] as const;

describe.each(engines)('resuming from the stream log on $engine', ({ engine, skip }) => {
  let app: TestApp | undefined;
  let schema: TestSchema | undefined;
  let clients: SseClient[] = [];
  afterEach(async () => {
    for (const c of clients) c.close();
    clients = [];
    await app?.close();
    app = undefined;
    await schema?.drop();
    schema = undefined;
  });

  async function start(opts: TestAppOptions & { source: TestBoardSource }) {
    if (engine === 'postgres') schema = await createTestSchema('streamlog');
    app = await buildTestApp({ ...opts, ...(schema ? { databaseUrl: schema.url } : {}) });
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    const open = async (path: string, key: string, lastId?: string) => {
      const c = await openStream(base, path, {
        authorization: `Bearer ${key}`,
        ...(lastId ? { 'last-event-id': lastId } : {}),
      });
      clients.push(c);
      expect(c.status).toBe(200);
      return c;
    };
    return { app, open };
  }

  it.skipIf(skip)(
    'gives a client away past the window exactly what it missed, per view, then the live changes',
    async () => {
      const source = new TestBoardSource(buildBoard(specs(0), T0));
      // The window keeps about two changes (boards a second apart); the log keeps hours.
      // Pages of 3 events within stretches of about 5 logged events: a replay reads many.
      const { app, open } = await start({
        source,
        now: () => T0,
        stream: { retainMs: 2_500, replayPageEvents: 3 },
        streamLog: { scanEvents: 5 },
      });
      const views = [
        { path: '/api/v1/stream?sport=nba,mlb', key: app.keys.sharp },
        { path: '/api/v1/stream?stats=points', key: app.keys.pro },
        { path: '/api/v1/stream?player=aaron%20WILSON', key: app.keys.sharp },
        { path: '/api/v1/stream?eventId=pp_3', key: app.keys.sharp },
        { path: '/api/v1/stream?sport=nba&minEdge=0.01', key: app.keys.enterprise },
      ];
      const wholes = await Promise.all(views.map((v) => open(v.path, v.key)));
      const droppers = await Promise.all(views.map((v) => open(v.path, v.key)));
      await Promise.all([...wholes, ...droppers].map((c) => c.waitFor(1, 'snapshot')));
      let step = 0;
      const publish = () => {
        step++;
        const board = buildBoard(specs(step), T0 + step * 1_000);
        source.publish(board);
        return board.version;
      };
      let last = 0;
      for (let i = 0; i < 4; i++) last = publish();
      await until(() => droppers.every((d) => reached(d.events, last)));
      for (const d of droppers) d.close();
      const kept = droppers.map((d) => cutMidChange(d.events));
      // Away for six boards: the window no longer holds where they stopped.
      for (let i = 0; i < 6; i++) last = publish();
      await app.streamLog?.flush();
      const resumed = await Promise.all(views.map((v, i) => open(v.path, v.key, kept[i]?.at(-1)?.id)));
      for (let i = 0; i < 2; i++) last = publish();
      await until(() => wholes.every((w) => reached(w.events, last)));
      await until(() =>
        views.every(
          (_, i) =>
            changesOf([...(kept[i] ?? []), ...(resumed[i]?.events ?? [])]).length >=
            changesOf(wholes[i]?.events ?? []).length,
        ),
      );
      views.forEach((_, i) => {
        const union = [...(kept[i] ?? []), ...(resumed[i]?.events ?? [])];
        expect(union.filter((e) => e.data.type === 'snapshot')).toHaveLength(1);
        expect(union.some((e) => e.data.type === 'snapshot' && e.data.reset)).toBe(false);
        expect(changesOf(union)).toEqual(changesOf(wholes[i]?.events ?? []));
      });
      // The cut was mid-change, and the filtered views got only their own events.
      expect(kept[0]?.length).toBeLessThan(droppers[0]?.events.length ?? 0);
      const player = changesOf(resumed[2]?.events ?? []);
      expect(player.length).toBeGreaterThan(0);
      expect(player.every((c) => c.includes('"player":"Aaron Wilson"'))).toBe(true);
      expect(changesOf(resumed[1]?.events ?? []).some((c) => c.includes('Dan Evans'))).toBe(false);
      // The minEdge view's replay told Aaron's fall below the floor as the live stream did.
      expect(changesOf(resumed[4]?.events ?? []).some((c) => c.includes('below_min_edge'))).toBe(true);
    },
  );

  it.skipIf(skip)('resumes the free tier from the log, never ahead of its 10-minute delay', async () => {
    let now = T0;
    const source = new TestBoardSource(buildBoard(specs(0), T0 - 11 * 60_000));
    const { app, open } = await start({
      source,
      now: () => now,
      stream: { retainMs: 11 * 60_000, tickMs: 5 },
    });
    const freeKey = await app.createKey({ tier: 'free' });
    const boards = [source.current()];
    // A minute a board; the delayed view moves a board at a time (its ticks run in between).
    const publish = async () => {
      const step = boards.length;
      now = T0 + step * 60_000;
      const board = buildBoard(specs(step), now);
      boards.push(board);
      source.publish(board);
      await new Promise((r) => setTimeout(r, 25));
    };
    const whole = await open('/api/v1/stream', app.keys.free);
    const dropper = await open('/api/v1/stream', freeKey);
    for (let i = 0; i < 13; i++) await publish();
    // Thirteen minutes in, the delayed view stands at board 3.
    const at3 = (boards[3] as { version: number }).version;
    await until(() => reached(dropper.events, at3) && reached(whole.events, at3));
    dropper.close();
    await dropper.closed;
    const kept = cutMidChange(dropper.events);
    // Twenty more minutes: the window (11 minutes) starts long after board 3.
    for (let i = 0; i < 20; i++) await publish();
    await app.streamLog?.flush();
    const cursor = (boards[23] as { version: number }).version;
    await until(() => reached(whole.events, cursor));
    const resumed = await open('/api/v1/stream', freeKey, kept.at(-1)?.id);
    await until(() => reached(resumed.events, cursor));
    await new Promise((r) => setTimeout(r, 50));
    // Nothing younger than ten minutes.
    expect(Math.max(...resumed.events.filter((e) => e.id).map(versionOf))).toBe(cursor);
    await publish();
    const next = (boards[24] as { version: number }).version;
    await until(() => reached(resumed.events, next) && reached(whole.events, next));
    const union = [...kept, ...resumed.events];
    expect(union.filter((e) => e.data.type === 'snapshot')).toHaveLength(1);
    expect(changesOf(union)).toEqual(changesOf(whole.events));
    expect(union.some((e) => e.data.type === 'prop' && e.data.row.liveValue !== undefined)).toBe(false);
  });

  it.skipIf(skip)('ends a resume from the log with slow_consumer when the client does not read it', async () => {
    // About 14 MB to replay: more than the kernel's socket buffers take from a paused reader
    // (2.9 MB sometimes fitted in them, and the replay then finished instead).
    const big = (step: number): GameSpec[] => [
      { id: 'pp_9', props: manyProps(2_000).map((p) => ({ ...p, line: p.line + step })) },
    ];
    const source = new TestBoardSource(buildBoard(big(0), T0));
    const { app, open } = await start({
      source,
      now: () => T0,
      stream: { retainMs: 2_500, maxBufferBytes: 64 * 1024, replayDrainMs: 200 },
    });
    const from = String(source.current().version);
    for (let step = 1; step <= 12; step++) source.publish(buildBoard(big(step), T0 + step * 1_000));
    await app.streamLog?.flush();
    const slow = await open('/api/v1/stream', app.keys.sharp, from);
    slow.pause();
    await until(() => app.app.streams.size === 0);
    slow.resume();
    const [end] = await slow.waitFor(1, 'end');
    expect(end?.data).toMatchObject({ type: 'end', reason: 'slow_consumer' });
    // What it got before is the log's, in order, from right after the id.
    expect(slow.events[0]?.id).toBe(`${Number(from) + 1}.1`);
    expect(slow.events.some((e) => e.data.type === 'snapshot')).toBe(false);
  });

  it.skipIf(skip)(
    'starts over with a reset snapshot for an id older than the log keeps, or a gap past the replay cap',
    async () => {
      let now = T0;
      const boards = [buildBoard(specs(0), T0)];
      for (let step = 1; step <= 10; step++) boards.push(buildBoard(specs(step), T0 + step * 1_000));
      const at = (step: number) => (boards[step] as { version: number }).version;
      // The nba events of the changes to boards 5 to 10: what a resume from board 4 replays.
      let fromFour = 0;
      for (let step = 5; step <= 10; step++) {
        const change = boardChange(boards[step - 1] as Board, boards[step] as Board);
        fromFour += change.events.filter((e) => e.game.sport === 'nba').length;
      }
      const source = new TestBoardSource(boards[0] as Board);
      const { app, open } = await start({
        source,
        now: () => now,
        stream: { retainMs: 2_500, maxReplayEvents: fromFour },
        streamLog: { retainMs: 5_000 },
      });
      const path = '/api/v1/stream?sport=nba';
      const whole = await open(path, app.keys.sharp);
      for (const board of boards.slice(1)) source.publish(board);
      await until(() => reached(whole.events, at(10)));
      await app.streamLog?.flush();
      const after = (step: number) => changesOf(whole.events).filter((c) => Number(c.split('.')[0]) > at(step));
      /** A resume from board `step`, once it has its snapshot or every change after that board. */
      const resume = async (step: number) => {
        const c = await open(path, app.keys.sharp, String(at(step)));
        await until(() => c.events[0]?.data.type === 'snapshot' || changesOf(c.events).length >= after(step).length);
        return c;
      };
      // Board 3 is in the log, but the events after it are more than a replay sends.
      const capped = await resume(3);
      expect(capped.events[0]?.data).toMatchObject({ type: 'snapshot', reset: true, boardVersion: at(10) });
      // From board 4 (older than the window, which starts at board 7): exactly the cap, from the log.
      const within = await resume(4);
      expect(changesOf(within.events)).toEqual(after(4));
      expect(within.events.some((e) => e.data.type === 'snapshot')).toBe(false);

      now = T0 + 10_000;
      // The changes to boards fetched before T0 + 5 s (1 to 4) are pruned.
      expect(await app.streamLog?.prune()).toBe(4);
      const pruned = await resume(3);
      expect(pruned.events[0]?.data).toMatchObject({ type: 'snapshot', reset: true, boardVersion: at(10) });
      // Board 4 is what the oldest change kept (to board 5) was made from: still resumable.
      const edge = await resume(4);
      expect(changesOf(edge.events)).toEqual(after(4));
    },
  );
});
