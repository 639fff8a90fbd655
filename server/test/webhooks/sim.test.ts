/**
 * Webhooks on the seeded simulator, against a receiver that verifies every delivery with the
 * `standardwebhooks` package (never propsfeed's code): the real adapters and feed replay the
 * simulated day from a few minutes before an NBA game ends, and each poll cycle's board change
 * reaches the endpoint as the events its filters select: `prop.line_moved` of its sport and
 * stats, `prop.edge` when a prop's edge crosses its minEdge, and `game.final` when the game
 * ends. Every delivery verifies, and no webhook-id arrives twice.
 */
import { type WebhookEvent, WebhookEventSchema } from '@propsfeed/contract';
import { SIM_SPORTS, SimWorld } from '@propsfeed/sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfill } from '../../src/feed/backfill';
import { FeedCore } from '../../src/feed/core';
import { systemClock } from '../../src/webhooks/clock';
import { SIM_NOW, SIM_SEED } from '../board-routes/simSetup';
import { buildTestApp, type TestApp } from '../helpers/app';
import { pollSim } from '../helpers/simFeed';
import { type Receiver, retriedOnly, startReceiver } from './receiver';

const MIN = 60_000;
const SILENT = { info() {}, warn() {}, error() {} };
const world = new SimWorld(SIM_SEED);
const NBA = SIM_SPORTS.find((s) => s.id === 'nba');
if (!NBA) throw new Error('no nba in the simulator');

/** The first NBA game to end after SIM_NOW, as the seeded world schedules it. */
function nextNbaEnd(): number {
  for (let t = SIM_NOW; t < SIM_NOW + 2 * 86_400_000; t += 10 * MIN) {
    const live = world.gamesAt(NBA as never, t, 0).filter((g) => world.live(g, t).state === 'live');
    if (live.length > 0) return Math.min(...live.map((g) => g.endMs));
  }
  throw new Error('no NBA game in play within two days of SIM_NOW');
}

const END = nextNbaEnd();
const START = END - 8 * MIN;
let now = START;
let t: TestApp;
let core: FeedCore;
let receiver: Receiver;
const STATS = ['points', 'rebounds', 'assists', 'pra'];
const MIN_EDGE = 0.02;
let webhookId = '';

const poll = (at: number) => pollSim(core, world, at);

beforeAll(async () => {
  core = new FeedCore({ books: ['prizepicks', 'underdog'], logger: SILENT, retainMs: 30 * MIN, now: () => now });
  await backfill({ core, world, now: START, fromMs: START - 20 * MIN, coarseStepMs: 10 * MIN, fineStepMs: 5 * MIN });
  t = await buildTestApp({ source: core, now: () => now, webhooks: { clock: systemClock(() => now) } });
  receiver = await startReceiver();
  const res = await t.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { authorization: `Bearer ${t.keys.sharp}` },
    payload: {
      url: receiver.url,
      events: ['prop.line_moved', 'prop.edge', 'game.final'],
      filters: { sports: ['nba'], stats: STATS },
      minEdge: MIN_EDGE,
    },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  receiver.secrets = [res.json().secret];
  webhookId = res.json().id;
  // A poll cycle every 30 s of the simulated day, past the game's end.
  for (now = START + 30_000; now <= END + 2 * MIN; now += 30_000) {
    await poll(now);
    await t.webhooks?.produced();
  }
  const finals = () => receiver.received.filter((r) => r.event?.type === 'game.final').length;
  await receiver.waitFor(() => finals() > 0, 20_000);
  // Whatever was stored is sent: nothing pending in the endpoint's log.
  const pending = async () =>
    (
      await t.inject({
        method: 'GET',
        url: `/api/v1/webhooks/${res.json().id}/deliveries?status=pending`,
        headers: { authorization: `Bearer ${t.keys.sharp}` },
      })
    ).json().count as number;
  while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 20));
}, 120_000);

afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const ofType = <T extends WebhookEvent['type']>(type: T) =>
  receiver.events().filter((e): e is Extract<WebhookEvent, { type: T }> => e.type === type);

describe('webhooks on the seeded simulator', () => {
  it('every delivery verifies with standardwebhooks; a webhook-id arrives twice only as a retry, the same message', async () => {
    expect(receiver.received.length).toBeGreaterThan(10);
    expect(receiver.received.filter((r) => r.refused !== undefined)).toEqual([]);
    const ids = new Set(receiver.received.map((r) => r.id));
    expect(receiver.events()).toHaveLength(ids.size);
    const attemptsOf = async (id: string) => (await t.webhooks?.store.delivery(webhookId, id))?.attempts ?? 0;
    expect(await retriedOnly(receiver, attemptsOf)).toEqual([]);
  });

  it("sends bodies the contract's event schemas describe, exactly (no field the schema lacks)", () => {
    for (const event of receiver.events()) {
      const parsed = WebhookEventSchema.safeParse(event);
      expect(parsed.success, `${event.type}: ${parsed.error?.message}`).toBe(true);
      expect(JSON.parse(JSON.stringify(parsed.data))).toEqual(event);
    }
  });

  it('sends prop.line_moved events of its sport and stats only, each a move of at least half a point or 10 cents', () => {
    const moved = ofType('prop.line_moved');
    expect(moved.length).toBeGreaterThan(0);
    for (const { data } of moved) {
      expect(data.row.sport).toBe('nba');
      expect(STATS).toContain(data.row.stat);
      const cents = (o?: number) => (o === undefined ? undefined : o > 0 ? o - 100 : o + 100);
      const odds = (a?: number, b?: number) => {
        const [x, y] = [cents(a), cents(b)];
        return x !== undefined && y !== undefined && Math.abs(x - y) >= 10;
      };
      const movedEnough =
        Math.abs(data.lineChange) >= 0.5 ||
        odds(data.row.overOdds, data.previous.overOdds) ||
        odds(data.row.underOdds, data.previous.underOdds);
      expect(movedEnough, JSON.stringify(data.previous)).toBe(true);
    }
  });

  it('sends prop.edge when an edge crosses minEdge, one way or the other', () => {
    const edges = ofType('prop.edge');
    expect(edges.length).toBeGreaterThan(0);
    for (const { data } of edges) {
      expect(data.row.sport).toBe('nba');
      expect(data.minEdge).toBe(MIN_EDGE);
      const now = data.edge?.edge;
      const before = data.previousEdge;
      if (data.direction === 'above') {
        expect(now).toBeGreaterThanOrEqual(MIN_EDGE);
        if (before !== null) expect(before).toBeLessThan(MIN_EDGE);
      } else {
        expect(before).toBeGreaterThanOrEqual(MIN_EDGE);
        if (now !== undefined) expect(now).toBeLessThan(MIN_EDGE);
      }
    }
  });

  it('sends game.final when the game ends, with the game as it ended', () => {
    const finals = ofType('game.final');
    expect(finals.length).toBeGreaterThan(0);
    for (const { data, timestamp } of finals) {
      expect(data.game).toMatchObject({ sport: 'nba', state: 'final' });
      expect(Date.parse(timestamp)).toBeGreaterThanOrEqual(END);
    }
  });
});
