/**
 * `props webhooks`: what a person reads (terminal) and what a script reads (piped) for the
 * endpoint list, the delivery log and a ping; each event type in one line (`listen`); the
 * request `add` makes from its options. Stored text from elsewhere is escaped.
 */
import type { Webhook, WebhookDeliveries, WebhookEvent } from '@propsfeed/contract';
import { describe, expect, it } from 'vitest';
import { createRequestOf, renderDeliveries, renderList, renderTest, summaryOf } from '../src/commands/webhooks';
import { deliveryLine } from '../src/listen';
import { Output } from '../src/output/output';
import { capture, expectFixture, fakeClient, NOW, testContext } from './harness';

const webhook = (over: Partial<Webhook>): Webhook => ({
  id: 'wh_000000000000000000000001',
  url: 'https://hooks.example.com/propsfeed',
  description: null,
  events: ['prop.line_moved', 'game.final'],
  filters: { sports: ['nba'], stats: ['points'] },
  thresholds: { line: 0.5, odds: 10 },
  minEdge: null,
  entry: null,
  status: 'active',
  disabledReason: null,
  failingSince: null,
  eventsPerMinute: 3000,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-21T18:30:00.000Z',
  updatedAt: '2026-11-21T18:30:00.000Z',
  ...over,
});

const list = {
  count: 2,
  max: 20,
  webhooks: [
    webhook({}),
    webhook({
      id: 'wh_000000000000000000000002',
      url: 'https://alerts.example.org/in\u001b[2J',
      events: ['prop.edge'],
      filters: { players: ['Nikola Jokić'], books: ['underdog'] },
      status: 'disabled',
      disabledReason: 'the receiver answered 410 Gone',
    }),
  ],
};

const log: WebhookDeliveries = {
  webhookId: 'wh_000000000000000000000001',
  count: 2,
  nextBefore: '1795760000000_msg_00000000000000000000000a',
  deliveries: [
    {
      id: 'msg_00000000000000000000000b',
      type: 'prop.line_moved',
      status: 'pending',
      attempts: 2,
      createdAt: '2026-11-21T23:58:00.000Z',
      lastAttemptAt: '2026-11-21T23:58:05.000Z',
      nextAttemptAt: '2026-11-22T00:03:05.000Z',
      responseStatus: 503,
      latencyMs: 41,
      error: 'answered 503: busy',
    },
    {
      id: 'msg_00000000000000000000000a',
      type: 'ping',
      status: 'succeeded',
      attempts: 1,
      createdAt: '2026-11-21T23:50:00.000Z',
      lastAttemptAt: '2026-11-21T23:50:00.000Z',
      nextAttemptAt: null,
      responseStatus: 204,
      latencyMs: 12,
      error: null,
    },
  ],
};

describe.each([
  ['terminal', true],
  ['piped', false],
])('props webhooks output (%s)', (mode, terminal) => {
  it('lists endpoints with their events, filters and state, escaping stored text', () => {
    const { ctx } = testContext(fakeClient({}), { terminal });
    const text = renderList(list, ctx);
    expect(text).not.toContain('\u001b[2J');
    expectFixture(`webhooks-list.${mode}.txt`, text);
  });

  it('shows the delivery log newest first, with the cursor to older ones', () => {
    const { ctx } = testContext(fakeClient({}), { terminal });
    expectFixture(`webhooks-deliveries.${mode}.txt`, renderDeliveries(log, ctx));
  });
});

describe('props webhooks', () => {
  it('says how a ping went', () => {
    const { ctx } = testContext(fakeClient({}), { terminal: true });
    expect(renderTest(log.deliveries[1] as never, ctx)).toBe(
      '✓ ping msg_00000000000000000000000a: answered 204 in 12 ms\n',
    );
    expect(renderTest(log.deliveries[0] as never, ctx)).toBe(
      '✗ ping msg_00000000000000000000000b: answered 503 in 41 ms (answered 503: busy); retried at 2026-11-22T00:03:05.000Z\n',
    );
    const piped = testContext(fakeClient({}), { terminal: false }).ctx;
    expect(renderTest(log.deliveries[0] as never, piped)).toBe(
      'msg_00000000000000000000000b\tpending\t503\t41\tanswered 503: busy\n',
    );
  });

  it('builds the request of `add` from its options', () => {
    expect(
      createRequestOf('https://h.example/x', {
        events: ['prop.line_moved', 'prop.edge'],
        sport: ['nba', 'mlb'],
        stat: 'points,pra',
        player: ['Nikola Jokic'],
        book: ['underdog'],
        game: ['pp_1'],
        line: 1,
        odds: 15,
        minEdge: 0.03,
        entry: 'underdog_standard_3',
        description: 'alerts',
      }),
    ).toEqual({
      url: 'https://h.example/x',
      events: ['prop.line_moved', 'prop.edge'],
      filters: {
        sports: ['nba', 'mlb'],
        stats: ['points', 'pra'],
        players: ['Nikola Jokic'],
        books: ['underdog'],
        games: ['pp_1'],
      },
      thresholds: { line: 1, odds: 15 },
      minEdge: 0.03,
      entry: 'underdog_standard_3',
      description: 'alerts',
    });
    expect(createRequestOf('https://h.example/x', { events: ['game.final'] })).toEqual({
      url: 'https://h.example/x',
      events: ['game.final'],
    });
  });

  it('says what each event is in one line, and listen prints it verified or refused', () => {
    const row = { player: 'Nikola Jokić', stat: 'points', line: 27.5, overOdds: -120, underOdds: 100, eventId: 'pp_1' };
    const game = {
      id: 'pp_1',
      sport: 'nba',
      homeTeam: 'Denver Nuggets',
      awayTeam: 'Los Angeles Lakers',
      state: 'final',
      score: { home: 112, away: 108 },
    };
    const events = [
      { type: 'prop.line_moved', data: { row, previous: { line: 26.5, overOdds: -110, underOdds: -110 } } },
      {
        type: 'prop.edge',
        data: {
          row,
          edge: { side: 'over', line: 27.5, edge: 0.034, entry: 'prizepicks_power_2' },
          minEdge: 0.03,
          direction: 'above',
        },
      },
      { type: 'game.final', data: { game } },
      {
        type: 'prop.settled',
        data: {
          eventId: 'pp_1',
          player: 'Nikola Jokić',
          stat: 'points',
          finalValue: 31,
          books: [{ source: 'prizepicks', closingLine: 27.5, result: 'over' }],
        },
      },
      { type: 'webhook.capped', data: { message: '12 events were not sent' } },
    ] as unknown as WebhookEvent[];
    expect(events.map(summaryOf)).toEqual([
      'Nikola Jokić points 26.5 (-110/-110) → 27.5 (-120/+100) · pp_1',
      'Nikola Jokić points over 27.5 3.4 pts vs prizepicks_power_2 (above 3.0 pts) · pp_1',
      'Los Angeles Lakers @ Denver Nuggets final 108-112 · pp_1',
      'Nikola Jokić points final 31: prizepicks 27.5 over · pp_1',
      '12 events were not sent',
    ]);
    const out = new Output(capture(false), capture(false), { NO_COLOR: '1' });
    const clock = { now: () => NOW, timeZone: 'UTC' };
    expect(deliveryLine(out, clock, 'msg_1', { event: events[2] as WebhookEvent, summary: 'a\u001b]0;x\u0007' })).toBe(
      '2026-11-22T00:00:00.000Z\tverified\tgame.final\ta\\x1b]0;x\\x07\tmsg_1\n',
    );
    const tty = new Output(capture(true), capture(false), { NO_COLOR: '1' });
    expect(deliveryLine(tty, clock, 'msg_2', { refused: 'No matching signature found' })).toBe(
      '00:00:00  ✗ not verified    No matching signature found  msg_2\n',
    );
  });
});
