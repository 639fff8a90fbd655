/**
 * GET /api/v1/stream?minEdge= on hand-built boards whose edges the odds decide: the snapshot
 * keeps the rows at or above the floor, a prop rising to it is a `prop`, one falling below is
 * a `prop.removed` (reason below_min_edge) under the full stream's id for the same event, a
 * pull is sent only for a prop the view showed, and a resume mid-change gets exactly the rest.
 */
import type { StreamEvent } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import { buildBoard, type GameSpec, type PropSpec, TestBoardSource } from '../helpers/board';
import type { ReceivedEvent, SseClient } from './sseClient';
import { streamApps } from './streamApp';

const T0 = Date.parse('2026-11-22T01:00:00.000Z');
// Underdog's -140/+120 de-vigs to 0.562 over, which the model (no logs here: the market's read of
// the line's distribution) puts at +0.0136 to +0.0163 against PrizePicks' cheapest entry (6-pick
// Flex, 0.5421), by line and stat; the default -115/-105 at about -0.04. No odds, no edge.
const ABOVE = { overOdds: -140, underOdds: 120 };
const BELOW = { overOdds: -115, underOdds: -105 };
const MIN_EDGE = 0.01;

const aaron = (odds: typeof ABOVE): PropSpec => ({ player: 'Aaron Wilson', stat: 'points', line: 20.5, ...odds });
const ben = (odds: typeof ABOVE): PropSpec => ({ player: 'Ben Cole', stat: 'points', line: 12.5, ...odds });
const carl: PropSpec = { player: 'Carl Diaz', stat: 'rebounds', line: 7.5, books: ['prizepicks'] };
const dan: PropSpec = { player: 'Dan Evans', stat: 'assists', line: 5.5, ...ABOVE };

/** Before: Aaron and Dan above the floor, Ben below, Carl without an edge. */
const before: GameSpec[] = [{ id: 'pp_1', props: [aaron(ABOVE), ben(BELOW), carl, dan] }];
/** After: Aaron falls below, Ben rises above, Carl (never shown) and Dan (shown) are pulled. */
const after: GameSpec[] = [{ id: 'pp_1', props: [aaron(BELOW), ben(ABOVE)] }];

const start = streamApps();

type Removed = Extract<StreamEvent, { type: 'prop.removed' }>;
const summary = (e: ReceivedEvent) =>
  e.data.type === 'prop'
    ? [e.id, 'prop', e.data.row.player]
    : e.data.type === 'prop.removed'
      ? [e.id, 'prop.removed', e.data.player, (e.data as Removed).reason]
      : [e.id, e.data.type];
const changes = (c: SseClient) => c.events.filter((e) => e.data.type !== 'snapshot').map(summary);

describe('GET /api/v1/stream?minEdge=', () => {
  it('snapshots the rows at or above minEdge, then tells rising props as prop and falling ones as prop.removed', async () => {
    const source = new TestBoardSource(buildBoard(before, T0));
    const { app, open } = await start({ source, now: () => T0 });
    const whole = await open('/api/v1/stream?sport=nba', app.keys.pro);
    const edged = await open(`/api/v1/stream?sport=nba&minEdge=${MIN_EDGE}`, app.keys.pro);
    const [snapshot] = await edged.waitFor(1, 'snapshot');
    if (snapshot?.data.type !== 'snapshot') throw new Error('not a snapshot');
    expect(snapshot.data.rows.map((r) => [r.player, r.edge?.edge])).toEqual([
      ['Aaron Wilson', 0.0199],
      ['Dan Evans', 0.0199],
    ]);
    await whole.waitFor(1, 'snapshot');

    const next = buildBoard(after, T0 + 1_000);
    source.publish(next);
    await whole.waitFor(4);
    await edged.waitFor(4);
    const v = next.version;
    // The full stream: both props moved, both pulls.
    expect(changes(whole)).toEqual([
      [`${v}.1`, 'prop', 'Aaron Wilson'],
      [`${v}.2`, 'prop', 'Ben Cole'],
      [`${v}.3`, 'prop.removed', 'Carl Diaz', 'pulled'],
      [`${v}.4`, 'prop.removed', 'Dan Evans', 'pulled'],
    ]);
    // The minEdge view: the same ids; Aaron left it, Ben joined it, Carl it never showed.
    expect(changes(edged)).toEqual([
      [`${v}.1`, 'prop.removed', 'Aaron Wilson', 'below_min_edge'],
      [`${v}.2`, 'prop', 'Ben Cole'],
      [`${v}.4`, 'prop.removed', 'Dan Evans', 'pulled'],
    ]);
    expect(edged.events.find((e) => e.id === `${v}.2`)?.data).toMatchObject({
      type: 'prop',
      row: { player: 'Ben Cole', edge: { edge: 0.0199 } },
      previous: { line: 12.5, overOdds: -115, underOdds: -105 },
    });
    expect(edged.events.find((e) => e.id === `${v}.1`)?.data).toEqual({
      type: 'prop.removed',
      eventId: 'pp_1',
      sport: 'nba',
      player: 'Aaron Wilson',
      stat: 'points',
      reason: 'below_min_edge',
    });

    // Aaron back above the floor: a prop event again; Ben unchanged sends nothing.
    const again = buildBoard([{ id: 'pp_1', props: [aaron(ABOVE), ben(ABOVE)] }], T0 + 2_000);
    source.publish(again);
    await edged.waitFor(1 + 4);
    expect(changes(edged).slice(3)).toEqual([[`${again.version}.1`, 'prop', 'Aaron Wilson']]);
  });

  it('resumes a minEdge stream mid-change with exactly the events after the id', async () => {
    const source = new TestBoardSource(buildBoard(before, T0));
    const { app, open } = await start({ source, now: () => T0 });
    const path = `/api/v1/stream?sport=nba&minEdge=${MIN_EDGE}`;
    const whole = await open(path, app.keys.sharp);
    const [snapshot] = await whole.waitFor(1, 'snapshot');
    source.publish(buildBoard(after, T0 + 1_000));
    source.publish(buildBoard([{ id: 'pp_1', props: [aaron(ABOVE), ben(BELOW)] }], T0 + 2_000));
    await whole.waitFor(1 + 5);
    const all = changes(whole);
    expect(all.map((e) => e[1])).toEqual(['prop.removed', 'prop', 'prop.removed', 'prop', 'prop.removed']);
    for (const from of [snapshot?.id, ...all.map((e) => e[0])] as string[]) {
      const resumed = await open(path, app.keys.sharp, { 'last-event-id': from });
      const rest = all.slice(all.findIndex((e) => e[0] === from) + 1);
      if (rest.length > 0) await resumed.waitFor(rest.length);
      // Nothing more arrives: what came is the whole catch-up.
      await new Promise((r) => setTimeout(r, 50));
      expect(changes(resumed), `after ${from}`).toEqual(rest);
      resumed.close();
      await resumed.closed;
    }
  });

  it('refuses minEdge to a tier without edges and a minEdge out of bounds or not a number', async () => {
    const source = new TestBoardSource(buildBoard(before, T0 - 11 * 60_000));
    const { app, open } = await start({ source, now: () => T0 });
    const free = await open(`/api/v1/stream?minEdge=${MIN_EDGE}`, app.keys.free);
    expect([free.status, JSON.parse(free.body)]).toEqual([
      403,
      {
        error: 'route_not_in_tier',
        message: 'minEdge on /api/v1/stream is not included in the free tier',
        requiredTier: 'pro',
      },
    ]);
    for (const bad of ['-2', '1.5', 'abc', '', '0.02x']) {
      const res = await open(`/api/v1/stream?minEdge=${encodeURIComponent(bad)}`, app.keys.pro);
      expect([res.status, JSON.parse(res.body).error], `minEdge=${bad}`).toEqual([400, 'invalid_request']);
      expect(JSON.parse(res.body).message, `minEdge=${bad}`).toMatch(/minEdge/);
    }
    const negative = await open('/api/v1/stream?minEdge=-0.5', app.keys.pro);
    expect(negative.status).toBe(200);
  });
});
