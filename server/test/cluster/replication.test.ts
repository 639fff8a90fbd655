/**
 * Board replication over the machine's Redis: a publisher (the leader) and replicas that
 * must all hold the same boards, versions and history, whenever they started.
 */
import { inflateRawSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Board } from '../../src/board/types';
import {
  BoardPublisher,
  ReplicatedBoardSource,
  type ReplicationKeys,
  replicationKeys,
} from '../../src/cluster/replication';
import { connectRedis, redisReady } from '../../src/store/redis';
import { dropRedisPrefix, enginesAvailable, TEST_REDIS_URL, uniqueName } from '../shared/engines';
import { startTcpProxy } from '../shared/tcp-proxy';
import { board, game, HEALTH } from './boards';

const available = await enginesAvailable({ redis: true });

/** Board times inside the replicas' retention (they prune history older than 15 minutes). */
const T = Date.now() - 60_000;

describe.skipIf(!available)('board replication (Redis stream)', () => {
  const connections: Redis[] = [];
  const sources: ReplicatedBoardSource[] = [];
  let prefix = '';
  let keys: ReplicationKeys;

  async function redis(blocking = false) {
    const r = connectRedis(TEST_REDIS_URL, { blocking });
    connections.push(r);
    await redisReady(r);
    return r;
  }
  async function leader(token = 'token-a') {
    const r = await redis();
    await r.set(keys.lease, token);
    return new BoardPublisher({ redis: r, keys, leaseToken: token });
  }
  async function replica() {
    const source = new ReplicatedBoardSource({ redis: await redis(), reader: await redis(true), keys });
    sources.push(source);
    await source.start();
    return source;
  }
  const untilVersion = (source: ReplicatedBoardSource, version: number) =>
    vi.waitFor(() => expect(source.current().version).toBe(version), { timeout: 10_000, interval: 20 });
  const plain = (b: Board) => ({ fetchedAt: b.fetchedAt, games: b.games });

  afterEach(async () => {
    await Promise.all(sources.splice(0).map((s) => s.stop()));
    for (const c of connections.splice(0)) c.disconnect();
    await dropRedisPrefix(prefix);
  });

  async function setUp() {
    prefix = `${uniqueName('repl')}:`;
    keys = replicationKeys(prefix);
  }

  it('gives every replica the same board and version, sharing unchanged games between versions', async () => {
    await setUp();
    const publisher = await leader();
    const [a, b] = [await replica(), await replica()];
    expect(a.ready()).toBe(false);

    const g1 = game('pp_1', 20.5);
    const g2 = game('pp_2', 7.5);
    const v1 = await publisher.publish(board(1, T + 1_000, [g1, g2]), HEALTH);
    const moved = game('pp_2', 8.5);
    const v2 = await publisher.publish(board(2, T + 2_000, [g1, moved]), HEALTH);
    const v3 = await publisher.publish(board(3, T + 3_000, [moved]), HEALTH);
    expect(v2).toBe((v1 as number) + 1);
    expect(v3).toBe((v1 as number) + 2);

    for (const source of [a, b]) {
      await untilVersion(source, v3 as number);
      expect(plain(source.current())).toEqual(plain(board(0, T + 3_000, [moved])));
      expect(source.current().gameById.get('ud_2')?.props[0]?.line).toBe(8.5);
      expect(source.ready()).toBe(true);
      expect(source.health()).toEqual(HEALTH);
    }
    // Each version as published, available to the delayed view by time.
    expect(plain(a.at(T + 1_500))).toEqual(plain(board(0, T + 1_000, [g1, g2])));
    expect(a.at(T + 2_000).games.map((g) => g.props[0]?.line)).toEqual([20.5, 8.5]);
    expect(a.at(T + 999)).toMatchObject({ version: 0, games: [] });
    // Unchanged games are the same objects from one version to the next (memory is shared).
    expect(a.at(T + 2_000).games[0]).toBe(a.at(T + 1_000).games[0]);
  });

  it('sends only changed games after the first keyframe', async () => {
    await setUp();
    const publisher = await leader();
    const games = Array.from({ length: 50 }, (_, i) => game(`pp_${i}`, 10 + i));
    await publisher.publish(board(1, T + 1_000, games), HEALTH);
    await publisher.publish(board(2, T + 2_000, [...games.slice(0, 49), game('pp_49', 99)]), HEALTH);
    const r = await redis();
    const entries = await r.xrangeBuffer(keys.stream, '-', '+');
    expect(entries.map(([, f]) => f[3]?.toString())).toEqual(['k', 'd']);
    const decoded = entries.map(([, f]) => JSON.parse(inflateRawSync(f[5] as Buffer).toString()));
    expect(decoded.map((m) => [m.order.length, m.games.length])).toEqual([
      [50, 50],
      [50, 1],
    ]);
    expect(decoded[1].games[0].props[0].line).toBe(99);
  });

  it('brings a replica that starts late up to the same history', async () => {
    await setUp();
    const publisher = await leader();
    const early = await replica();
    for (let i = 1; i <= 4; i++) await publisher.publish(board(i, T + i * 1_000, [game('pp_1', i)]), HEALTH);
    const late = await replica();
    await untilVersion(early, late.current().version);
    for (const t of [T + 1_000, T + 2_500, T + 4_000]) expect(plain(late.at(t))).toEqual(plain(early.at(t)));
    expect(late.at(T + 2_500).version).toBe(early.at(T + 2_500).version);
  });

  it('refuses boards from a replica that no longer holds the lease', async () => {
    await setUp();
    const publisher = await leader('old-leader');
    const source = await replica();
    const v1 = (await publisher.publish(board(1, T + 1_000, [game('pp_1', 1)]), HEALTH)) as number;
    await (await redis()).set(keys.lease, 'new-leader');
    expect(await publisher.publish(board(2, T + 2_000, [game('pp_1', 2)]), HEALTH)).toBeNull();
    const successor = new BoardPublisher({ redis: await redis(), keys, leaseToken: 'new-leader' });
    const v2 = await successor.publish(board(1, T + 3_000, [game('pp_1', 3)]), HEALTH);
    expect(v2).toBe(v1 + 1);
    await untilVersion(source, v2 as number);
    expect(source.current().games[0]?.props[0]?.line).toBe(3);
    expect(source.at(T + 2_000).games[0]?.props[0]?.line).toBe(1);
  });

  it('keeps the stream to the retention, from its newest keyframe older than that', async () => {
    await setUp();
    const r = await redis();
    await r.set(keys.lease, 'token');
    const publisher = new BoardPublisher({ redis: r, keys, leaseToken: 'token', keyframeEveryMs: 0, retentionMs: 0 });
    for (let i = 1; i <= 5; i++) await publisher.publish(board(i, T + i * 1_000, [game('pp_1', i)]), HEALTH);
    expect(await r.xlen(keys.stream)).toBe(1);
    const source = await replica();
    expect(source.current().games[0]?.props[0]?.line).toBe(5);
  });

  it('catches up on what it missed while Redis was unreachable', async () => {
    await setUp();
    const url = new URL(TEST_REDIS_URL);
    const proxy = await startTcpProxy(url.hostname, Number(url.port || 6379));
    try {
      const publisher = await leader();
      const via = (blocking: boolean) => {
        const c = connectRedis(`redis://127.0.0.1:${proxy.port}`, { blocking });
        connections.push(c);
        return c;
      };
      const source = new ReplicatedBoardSource({ redis: via(false), reader: via(true), keys });
      sources.push(source);
      const v1 = (await publisher.publish(board(1, T + 1_000, [game('pp_1', 1)]), HEALTH)) as number;
      await source.start();
      await untilVersion(source, v1);
      proxy.down();
      await publisher.publish(board(2, T + 2_000, [game('pp_1', 2)]), HEALTH);
      const v3 = (await publisher.publish(board(3, T + 3_000, [game('pp_1', 3)]), HEALTH)) as number;
      expect(source.current().version).toBe(v1);
      proxy.up();
      await untilVersion(source, v3);
      expect(source.at(T + 2_000).games[0]?.props[0]?.line).toBe(2);
    } finally {
      await proxy.close();
    }
  });

  it('notifies subscribers of each new board', async () => {
    await setUp();
    const publisher = await leader();
    const source = await replica();
    const seen: number[] = [];
    const unsubscribe = source.subscribe((b) => seen.push(b.games[0]?.props[0]?.line ?? -1));
    await publisher.publish(board(1, T + 1_000, [game('pp_1', 1)]), HEALTH);
    await publisher.publish(board(2, T + 2_000, [game('pp_1', 2)]), HEALTH);
    await vi.waitFor(() => expect(seen).toEqual([1, 2]), { timeout: 10_000, interval: 20 });
    unsubscribe();
  });
});
