/**
 * The stream on the shared engines: two replicas serving the board replicated through Redis
 * give the same ids to the same events, so a client dropped from one resumes on the other with
 * exactly what it missed, from the other's window or, past it, from the event log the leader
 * wrote to PostgreSQL; stream tokens and the per-key cap hold across replicas.
 */
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardGame } from '../../src/board/types';
import { BoardPublisher, ReplicatedBoardSource, replicationKeys } from '../../src/cluster/replication';
import { connectRedis, redisReady } from '../../src/store/redis';
import { RedisStreamSlots } from '../../src/stream/slots';
import { RedisStreamTokens, type StreamTokens } from '../../src/stream/tokens';
import { board, game, HEALTH } from '../cluster/boards';
import { buildTestApp, type TestApp, type TestAppOptions } from '../helpers/app';
import {
  createTestSchema,
  dropRedisPrefix,
  enginesAvailable,
  TEST_REDIS_URL,
  type TestSchema,
  uniqueName,
} from '../shared/engines';
import { openStream, type ReceivedEvent, type SseClient } from './sseClient';

const available = await enginesAvailable({ redis: true });
const postgres = await enginesAvailable({ postgres: true });
const T = Date.now() - 60_000;

describe.skipIf(!available)('the stream on replicas (Redis)', () => {
  const prefix = `${uniqueName('stream')}:`;
  const keys = replicationKeys(prefix);
  const connections: Redis[] = [];
  const sources: ReplicatedBoardSource[] = [];
  const apps: TestApp[] = [];
  const clients: SseClient[] = [];
  const schemas: TestSchema[] = [];
  let publisher: BoardPublisher;
  let version = 0;
  const lines = new Map<string, number>();

  async function redis(blocking = false) {
    const r = connectRedis(TEST_REDIS_URL, { blocking });
    connections.push(r);
    await redisReady(r);
    return r;
  }

  async function replica(
    opts: Omit<TestAppOptions, 'source'> = {},
  ): Promise<{ app: TestApp; url: string; source: ReplicatedBoardSource }> {
    const source = new ReplicatedBoardSource({ redis: await redis(), reader: await redis(true), keys });
    sources.push(source);
    await source.start();
    const app = await buildTestApp({ ...opts, source });
    apps.push(app);
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    return { app, url: `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`, source };
  }

  /** Publishes the next board: some games' lines move (a deterministic pattern). */
  async function publish(): Promise<number> {
    version++;
    const games: BoardGame[] = [];
    for (let g = 0; g < 6; g++) {
      const id = `pp_${100 + g}`;
      if ((version + g) % 3 === 0) lines.set(id, (lines.get(id) ?? 10.5) + 1);
      games.push(game(id, lines.get(id) ?? 10.5));
    }
    const published = await publisher.publish(board(version, T + version * 1_000, games), HEALTH);
    return published as number;
  }

  const until = async (check: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const reached = (events: ReceivedEvent[], v: number) => events.some((e) => e.id?.split('.')[0] === String(v));

  beforeAll(async () => {
    const r = await redis();
    await r.set(keys.lease, 'token-a');
    publisher = new BoardPublisher({ redis: r, keys, leaseToken: 'token-a' });
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    for (const app of apps) await app.close();
    await Promise.all(sources.map((s) => s.stop()));
    for (const c of connections) c.disconnect();
    for (const schema of schemas) await schema.drop();
    await dropRedisPrefix(prefix);
  });

  it('resumes on the other replica with exactly the events after the last id', async () => {
    await publish();
    const a = await replica();
    const b = await replica();
    const whole = await openStream(b.url, '/api/v1/stream', { authorization: `Bearer ${b.app.keys.sharp}` });
    const first = await openStream(a.url, '/api/v1/stream', { authorization: `Bearer ${a.app.keys.sharp}` });
    clients.push(whole, first);
    await first.waitFor(1, 'snapshot');
    await whole.waitFor(1, 'snapshot');
    let last = 0;
    for (let i = 0; i < 4; i++) last = await publish();
    await until(() => reached(first.events, last));
    first.close();
    // Mid-change: drop the events after the first of the last change, as a connection cut there would.
    const kept = first.events.slice(0, first.events.findIndex((e) => e.id === `${last}.1`) + 1);
    const lastId = kept.at(-1)?.id as string;
    expect(lastId).toBe(`${last}.1`);
    for (let i = 0; i < 3; i++) last = await publish();
    const resumed = await openStream(b.url, '/api/v1/stream', {
      authorization: `Bearer ${b.app.keys.sharp}`,
      'last-event-id': lastId,
    });
    clients.push(resumed);
    await until(() => reached(resumed.events, last) && reached(whole.events, last));
    const union = [...kept, ...resumed.events].filter((e) => e.data.type !== 'heartbeat');
    const reference = whole.events.filter((e) => e.data.type !== 'heartbeat' && e.data.type !== 'snapshot');
    expect(union[0]?.data.type).toBe('snapshot');
    expect(union.slice(1).map((e) => [e.id, e.data])).toEqual(reference.map((e) => [e.id, e.data]));
  });

  it.skipIf(!postgres)(
    "resumes past the other replica's window from the event log the leader wrote (PostgreSQL)",
    async () => {
      const schema = await createTestSchema('streamlog');
      schemas.push(schema);
      // Windows of about two boards (published a second apart); only the leader writes the log.
      const stream = { retainMs: 2_500 };
      const leader = await replica({ databaseUrl: schema.url, stream });
      const follower = await replica({ databaseUrl: schema.url, stream, streamLog: { writes: () => false } });
      const auth = (app: TestApp) => ({ authorization: `Bearer ${app.keys.sharp}` });
      const whole = await openStream(follower.url, '/api/v1/stream', auth(follower.app));
      const first = await openStream(leader.url, '/api/v1/stream', auth(leader.app));
      clients.push(whole, first);
      await first.waitFor(1, 'snapshot');
      await whole.waitFor(1, 'snapshot');
      let last = 0;
      for (let i = 0; i < 3; i++) last = await publish();
      await until(() => reached(first.events, last));
      first.close();
      // Cut mid-change, then away for six boards: the follower's window no longer holds the id.
      const cut = first.events.findIndex((e) => e.id === `${last}.1`);
      const kept = first.events.slice(0, cut + 1);
      const lastId = kept.at(-1)?.id as string;
      expect(lastId).toBe(`${last}.1`);
      for (let i = 0; i < 6; i++) last = await publish();
      await until(() => reached(whole.events, last) && leader.source.current().version >= last);
      await leader.app.streamLog?.flush();
      const resumed = await openStream(follower.url, '/api/v1/stream', {
        ...auth(follower.app),
        'last-event-id': lastId,
      });
      clients.push(resumed);
      for (let i = 0; i < 2; i++) last = await publish();
      await until(() => reached(resumed.events, last) && reached(whole.events, last));
      const union = [...kept, ...resumed.events].filter((e) => e.data.type !== 'heartbeat');
      const reference = whole.events.filter((e) => e.data.type !== 'heartbeat' && e.data.type !== 'snapshot');
      expect(union.filter((e) => e.data.type === 'snapshot')).toHaveLength(1);
      expect(union.slice(1).map((e) => [e.id, e.raw])).toEqual(reference.map((e) => [e.id, e.raw]));
    },
  );

  it('shares stream tokens and the per-key cap across replicas', async () => {
    const one = await redis();
    const two = await redis();
    const tokens: [StreamTokens, StreamTokens] = [
      new RedisStreamTokens(one, prefix),
      new RedisStreamTokens(two, prefix),
    ];
    const { token } = await tokens[0].issue('key-1', Date.now());
    expect(await tokens[1].redeem(token, Date.now())).toBe('key-1');
    expect(await tokens[0].redeem(token, Date.now())).toBeUndefined();

    const slots = [new RedisStreamSlots(one, prefix), new RedisStreamSlots(two, prefix)] as const;
    const held = [
      await slots[0].reserve('key-2', 3),
      await slots[1].reserve('key-2', 3),
      await slots[0].reserve('key-2', 3),
    ];
    expect(held.every((r) => typeof r === 'function')).toBe(true);
    expect(await slots[1].reserve('key-2', 3)).toBeUndefined();
    held[0]?.();
    await new Promise((r) => setTimeout(r, 50));
    expect(typeof (await slots[1].reserve('key-2', 3))).toBe('function');
    for (const s of slots) await s.close();
  });
});
