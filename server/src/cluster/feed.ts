/**
 * The feed of a replica on the shared engines. Every replica serves the board replicated
 * through Redis (cluster/replication.ts); the one replica holding the leader lease also runs
 * the ingest feed (books → merge → line history) and publishes each of its boards. When the
 * leader dies, another replica takes the lease and starts its own ingest.
 */
import type { Redis } from 'ioredis';
import { type Board, type BookHealth, boardSourceOf, type RunningFeed } from '../board/types';
import { type FeedLogger, SILENT_LOGGER } from '../feed/logger';
import { boardsSince } from '../feed/timeline';
import { connectRedis, redisReady } from '../store/redis';
import { serially } from '../util/serially';
import { LeaderLease } from './leader';
import { BoardPublisher, DEFAULT_RETENTION_MS, ReplicatedBoardSource, replicationKeys } from './replication';

export interface ClusterFeedOptions {
  redisUrl: string;
  /** Prefix of every Redis key (one Redis can hold several deployments, or test runs). */
  prefix?: string;
  /**
   * Starts ingest; called each time this replica becomes the leader. `resuming`: the cluster
   * served boards before (another replica led), so history is stored and needs no backfill.
   */
  startIngest: (ingest: { resuming: boolean }) => Promise<RunningFeed>;
  logger?: FeedLogger;
  leaseTtlMs?: number;
  retentionMs?: number;
  /** How often the leader republishes book health (which changes without a board change). */
  healthEveryMs?: number;
  /** The board's clock (PROPS_SIM_CLOCK's on the simulator): the delayed view's retention runs on it. */
  now?: () => number;
}

/** `stop()` stops ingest (handing the lease over at once) and stops following the board. */
export interface ClusterFeed extends RunningFeed {
  isLeader(): boolean;
}

export async function startClusterFeed(opts: ClusterFeedOptions): Promise<ClusterFeed> {
  const logger = opts.logger ?? SILENT_LOGGER;
  const report = (what: string) => (err: unknown) => logger.error({ err: String(err) }, what);
  const keys = replicationKeys(opts.prefix ?? 'pf:');
  const retentionMs = opts.retentionMs ?? DEFAULT_RETENTION_MS;
  const redis = connectRedis(opts.redisUrl);
  const reader = connectRedis(opts.redisUrl, { blocking: true });
  await Promise.all([redisReady(redis), redisReady(reader)]).catch(report('Redis not reachable at start-up'));

  const replicated = new ReplicatedBoardSource({
    redis,
    reader,
    keys,
    retentionMs,
    ...(opts.now ? { now: opts.now } : {}),
    onError: report('board replication'),
  });
  await replicated.start();

  // Taking and losing the lead run one after the other, never overlapping; starting ingest
  // (with its backfill) may take a while, during which the lease keeps being renewed.
  let leadership: Leadership | undefined;
  const transitions = serially();
  /** Consecutive failures to start ingest here: each doubles the wait before leading again. */
  let failedStarts = 0;
  const inTurn = (step: () => Promise<void>) => transitions(step).catch(report('leadership change'));
  const lease: LeaderLease = new LeaderLease({
    redis,
    key: keys.lease,
    ttlMs: opts.leaseTtlMs ?? 5_000,
    onAcquired: (token) => {
      void inTurn(async () => {
        if (!lease.isLeader()) return;
        logger.info({ token }, 'leading ingest');
        try {
          leadership = await lead({ redis, token, opts, keys, retentionMs, replicated, report });
          failedStarts = 0;
        } catch (err) {
          failedStarts++;
          const holdOffMs = Math.min(1_000 * 2 ** (failedStarts - 1), 30_000);
          report(`ingest failed to start; handing the lead over for ${holdOffMs} ms`)(err);
          // Not awaited: resigning runs onLost, a later step of this same chain.
          void lease.resign(holdOffMs).catch(report('resign'));
        }
      });
    },
    onLost: () =>
      inTurn(async () => {
        const was = leadership;
        leadership = undefined;
        if (was) logger.info({}, 'no longer leading ingest');
        await was?.stop();
      }),
    onError: report('leader lease'),
  });
  await lease.start();

  return {
    ...boardSourceOf(replicated),
    isLeader: () => lease.isLeader(),
    async stop() {
      await lease.stop();
      await replicated.stop();
      redis.disconnect();
    },
  };
}

interface Leadership {
  stop(): Promise<void>;
}

interface LeadDeps {
  redis: Redis;
  token: string;
  opts: ClusterFeedOptions;
  keys: ReturnType<typeof replicationKeys>;
  retentionMs: number;
  replicated: ReplicatedBoardSource;
  report: (what: string) => (err: unknown) => void;
}

/** Runs ingest and publishes its boards, in order, until stopped. */
async function lead(deps: LeadDeps): Promise<Leadership> {
  const { redis, token, keys, retentionMs, replicated, report } = deps;
  const feed = await deps.opts.startIngest({ resuming: replicated.ready() });
  const publisher = new BoardPublisher({ redis, keys, leaseToken: token, retentionMs });

  // Publishing is serialized (the stream's order is the boards' order); a board that arrives
  // while one is being published waits, and only the newest waiting board is sent.
  let waiting: Board | undefined;
  let publishing: Promise<void> | undefined;
  const publishNext = (): Promise<void> => {
    const board = waiting;
    waiting = undefined;
    if (!board) return Promise.resolve();
    return publisher
      .publish(board, feed.health())
      .then(() => undefined, report('board publish'))
      .then(publishNext);
  };
  const enqueue = (board: Board) => {
    waiting = board;
    publishing ??= publishNext().finally(() => {
      publishing = undefined;
    });
  };

  // Boards the new ingest already holds (its start-up backfill, or what it fetched before
  // the stream's last board) go out first, oldest first, so the delayed view has them; boards
  // made meanwhile wait behind them.
  const backlog = boardsSince(feed, replicated.current().fetchedAt, (deps.opts.now ?? Date.now)() - retentionMs);
  const unsubscribe = feed.subscribe(enqueue);
  publishing = (async () => {
    for (const board of backlog) await publisher.publish(board, feed.health()).catch(report('board publish'));
  })()
    .then(publishNext)
    .finally(() => {
      publishing = undefined;
    });
  const health = (h: BookHealth[]) => publisher.publishHealth(h).catch(report('health publish'));
  await health(feed.health());
  const healthTimer = setInterval(() => void health(feed.health()), deps.opts.healthEveryMs ?? 2_000);
  healthTimer.unref();

  return {
    async stop() {
      clearInterval(healthTimer);
      unsubscribe();
      await publishing;
      await feed.stop();
    },
  };
}
