/**
 * Replicas on the shared engines, in one process: one leads ingest and publishes, all serve
 * the same boards, and the lead passes on without losing or repeating history.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Board, RunningFeed } from '../../src/board/types';
import { type ClusterFeed, startClusterFeed } from '../../src/cluster/feed';
import { dropRedisPrefix, enginesAvailable, TEST_REDIS_URL, uniqueName } from '../shared/engines';
import { board, game, HEALTH } from './boards';

const available = await enginesAvailable({ redis: true });

const T = Date.now() - 60_000;

/** An ingest feed a test drives: it starts holding `initial` boards and emits `push`ed ones. */
class FakeIngest implements RunningFeed {
  private boards: Board[];
  private readonly listeners = new Set<(b: Board) => void>();
  stopped = false;
  constructor(initial: Board[]) {
    this.boards = [...initial];
  }
  push(b: Board) {
    this.boards.push(b);
    for (const l of this.listeners) l(b);
  }
  current = () => this.boards.at(-1) ?? board(0, 0, []);
  at = (ms: number) => [...this.boards].reverse().find((b) => b.fetchedAt <= ms) ?? board(0, 0, []);
  subscribe = (l: (b: Board) => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  health = () => HEALTH;
  ready = () => true;
  stop = async () => {
    this.stopped = true;
  };
}

describe.skipIf(!available)('cluster feed (leader + replicated board)', () => {
  let prefix = '';
  const nodes: ClusterFeed[] = [];

  async function node(ingests: FakeIngest[]) {
    const feed = await startClusterFeed({
      redisUrl: TEST_REDIS_URL,
      prefix,
      leaseTtlMs: 1_500,
      startIngest: async () => {
        const next = ingests.shift();
        if (!next) throw new Error('no ingest prepared');
        return next;
      },
    });
    nodes.push(feed);
    return feed;
  }
  const lineAt = (b: Board) => b.games[0]?.props[0]?.line;
  const waitFor = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((n) => n.stop()));
    await dropRedisPrefix(prefix);
  });

  it('serves the leader’s boards on every replica and hands ingest over without a gap', async () => {
    prefix = `${uniqueName('cf')}:`;
    const first = new FakeIngest([board(1, T + 1_000, [game('pp_1', 1)]), board(2, T + 2_000, [game('pp_1', 2)])]);
    const a = await node([first]);
    await waitFor(() => expect(lineAt(a.current())).toBe(2));
    expect(a.isLeader()).toBe(true);
    const second = new FakeIngest([]);
    const b = await node([second]);
    expect(b.isLeader()).toBe(false);

    first.push(board(3, T + 3_000, [game('pp_1', 3)]));
    await waitFor(() => expect(lineAt(b.current())).toBe(3));
    expect(b.current().version).toBe(a.current().version);
    // The backlog the leader started with reached every replica's history.
    expect(lineAt(b.at(T + 1_500))).toBe(1);
    expect(b.health()).toEqual(HEALTH);

    // The successor's ingest starts where the stream ended (T + 3 s), plus what it fetched since.
    second.push(board(1, T + 3_000, [game('pp_1', 3)]));
    second.push(board(2, T + 4_000, [game('pp_1', 4)]));
    const versionBefore = b.current().version;
    await a.stop();
    expect(first.stopped).toBe(true);
    await waitFor(() => expect(b.isLeader()).toBe(true));
    await waitFor(() => expect(lineAt(b.current())).toBe(4));
    expect(b.current().version).toBe(versionBefore + 1);
    expect([1_000, 2_000, 3_000, 4_000].map((t) => lineAt(b.at(T + t)))).toEqual([1, 2, 3, 4]);
  });

  it('hands the lead on when ingest cannot start, and can lead again later', async () => {
    prefix = `${uniqueName('cf')}:`;
    const aIngests: FakeIngest[] = [];
    const a = await node(aIngests);
    const ingest = new FakeIngest([board(1, T + 1_000, [game('pp_1', 7)])]);
    const b = await node([ingest]);
    await waitFor(() => expect(lineAt(a.current())).toBe(7));
    expect(b.isLeader()).toBe(true);
    // The replica whose ingest failed takes over when the leader goes.
    aIngests.push(new FakeIngest([board(1, T + 2_000, [game('pp_1', 8)])]));
    await b.stop();
    await waitFor(() => expect(lineAt(a.current())).toBe(8));
    expect(a.isLeader()).toBe(true);
  });
});
