/**
 * Board replication: the ingest leader appends every board change to a Redis stream, and
 * every replica (the leader too) serves the board it rebuilds from that stream, so all of
 * them answer the same board, with the same version, and the same delayed views.
 *
 * Why a stream rather than pub/sub: a replica that reconnects, or starts late, reads what it
 * missed instead of silently serving a stale board. Entries are compact: a keyframe carries
 * every game, a delta only the games that changed (plus the board's order of game ids), both
 * deflated JSON. The stream keeps `retentionMs` of history (from a keyframe), which is what
 * the delayed view needs, so a replica started a minute ago answers `at()` like the others.
 * The changes are made (board/changes.ts BoardDiffer) and applied (its applyChange, in replica.ts BoardReplica) by
 * the same code as the embedded server's worker and API thread; only the transport is Redis's.
 */
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import type { Redis } from 'ioredis';
import { type BoardChange, BoardDiffer } from '../board/changes';
import type { Board, BoardGame, BookHealth } from '../board/types';
import { BoardReplica, DEFAULT_RETENTION_MS } from './replica';

export { DEFAULT_RETENTION_MS };

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

export interface ReplicationKeys {
  lease: string;
  stream: string;
  version: string;
  keyframes: string;
  health: string;
}

export function replicationKeys(prefix: string): ReplicationKeys {
  return {
    lease: `${prefix}feed:leader`,
    stream: `${prefix}feed:boards`,
    version: `${prefix}feed:version`,
    keyframes: `${prefix}feed:keyframes`,
    health: `${prefix}feed:health`,
  };
}

/**
 * One stream entry's body, before compression: a BoardChange without its numbers, which the
 * entry carries in its fields (`v`, and `k`: a keyframe, or a delta on version v - 1).
 */
interface BoardMessage {
  fetchedAt: number;
  /** Every game id of the board, in board order. */
  order: string[];
  /** The games new or changed since the previous entry; every game in a keyframe. */
  games: BoardGame[];
  health: BookHealth[];
}

// KEYS: lease, version, stream, keyframes. ARGV: lease token, kind ('k' | 'd'), body,
// retention (ms). Appends only while the caller holds the lease (a deposed leader's late
// write is refused), numbers boards cluster-wide, and trims history older than the newest
// keyframe that is itself older than the retention.
const PUBLISH = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('SET', KEYS[2], nowMs()) end
local v = redis.call('INCR', KEYS[2])
local id = redis.call('XADD', KEYS[3], '*', 'v', v, 'k', ARGV[2], 'b', ARGV[3])
if ARGV[2] == 'k' then redis.call('ZADD', KEYS[4], tonumber(string.match(id, '^(%d+)')), id) end
local keep = redis.call('ZREVRANGEBYSCORE', KEYS[4], nowMs() - tonumber(ARGV[4]), '-inf', 'LIMIT', 0, 1)[1]
if keep then
  redis.call('XTRIM', KEYS[3], 'MINID', keep)
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', '(' .. string.match(keep, '^(%d+)'))
end
return v
`;

interface PublishRedis extends Redis {
  pfPublishBoard(...args: (string | Buffer | number)[]): Promise<number | null>;
}

export interface BoardPublisherOptions {
  redis: Redis;
  keys: ReplicationKeys;
  /** The leader lease's token: publishing stops the moment the lease is someone else's. */
  leaseToken: string;
  /** A full keyframe at least this often, so a late replica needs little of the stream. */
  keyframeEveryMs?: number;
  retentionMs?: number;
}

/** The leader's side: turns each new board into a stream entry. */
export class BoardPublisher {
  private readonly redis: PublishRedis;
  private readonly differ = new BoardDiffer();
  private lastKeyframeAt = 0;

  constructor(private readonly opts: BoardPublisherOptions) {
    if (!('pfPublishBoard' in opts.redis))
      opts.redis.defineCommand('pfPublishBoard', { numberOfKeys: 4, lua: PUBLISH });
    this.redis = opts.redis as PublishRedis;
  }

  /** Appends the board; its cluster-wide version, or null when this replica no longer leads. */
  async publish(board: Board, health: BookHealth[], nowMs = Date.now()): Promise<number | null> {
    const keyframe = this.differ.needsKeyframe || nowMs - this.lastKeyframeAt >= (this.opts.keyframeEveryMs ?? 60_000);
    const change = this.differ.next(board, health, { keyframe });
    const message: BoardMessage = { fetchedAt: change.fetchedAt, order: change.order, games: change.games, health };
    const body = await deflate(Buffer.from(JSON.stringify(message)));
    const { keys } = this.opts;
    let version: number | null;
    try {
      version = await this.redis.pfPublishBoard(
        keys.lease,
        keys.version,
        keys.stream,
        keys.keyframes,
        this.opts.leaseToken,
        keyframe ? 'k' : 'd',
        body,
        this.opts.retentionMs ?? DEFAULT_RETENTION_MS,
      );
    } catch (err) {
      // Unknown whether it was appended: the next entry is a keyframe, so nobody depends on it.
      this.differ.reset();
      throw err;
    }
    if (version === null) {
      this.differ.reset();
      return null;
    }
    if (keyframe) this.lastKeyframeAt = nowMs;
    return Number(version);
  }

  /** Book health changes without a board change (errors, attempts): replicas read it here. */
  async publishHealth(health: BookHealth[]): Promise<void> {
    await this.redis.set(this.opts.keys.health, JSON.stringify(health), 'PX', 60_000);
  }
}

export interface ReplicatedBoardSourceOptions {
  /** For reads (XRANGE, GET). */
  redis: Redis;
  /** A connection of its own for the blocking XREAD (store/redis.ts `blocking`). */
  reader: Redis;
  keys: ReplicationKeys;
  retentionMs?: number;
  /** The board's clock, which the retention is counted on (default the machine's). */
  now?: () => number;
  /** How often book health is refreshed from the leader. */
  healthEveryMs?: number;
  onError?: (err: unknown) => void;
}

type StreamEntry = [id: Buffer, fields: Buffer[]];

/** Every replica's board: the stream, applied in order (by BoardReplica), with the history `at()` reads. */
export class ReplicatedBoardSource {
  private readonly replica: BoardReplica;
  private lastId = '0';
  private running = false;
  private loop: Promise<void> | undefined;
  private healthTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: ReplicatedBoardSourceOptions) {
    this.replica = new BoardReplica({
      ...(opts.retentionMs !== undefined ? { retentionMs: opts.retentionMs } : {}),
      ...(opts.now ? { now: opts.now } : {}),
      onError: (err) => this.report(err),
    });
  }

  /** Loads the stream's history, then follows it until `stop()`. */
  async start(): Promise<void> {
    this.running = true;
    try {
      await this.resync();
      await this.refreshHealth();
    } catch (err) {
      // Redis is down at start-up: serve an empty board until the loop catches up.
      this.report(err);
    }
    this.loop = this.follow();
    this.healthTimer = setInterval(() => {
      this.refreshHealth().catch(this.report);
    }, this.opts.healthEveryMs ?? 2_000);
    this.healthTimer.unref();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.healthTimer);
    // Unblocks the pending XREAD; the reader is this source's own connection.
    this.opts.reader.disconnect();
    await this.loop;
  }

  current(): Board {
    return this.replica.current();
  }

  at(atMs: number): Board {
    return this.replica.at(atMs);
  }

  subscribe(listener: (board: Board) => void): () => void {
    return this.replica.subscribe(listener);
  }

  health(): BookHealth[] {
    return this.replica.health();
  }

  ready(): boolean {
    return this.replica.ready();
  }

  private async follow(): Promise<void> {
    while (this.running) {
      try {
        const reply = (await this.opts.reader.xreadBuffer(
          'COUNT',
          100,
          'BLOCK',
          5_000,
          'STREAMS',
          this.opts.keys.stream,
          this.lastId,
        )) as [Buffer, StreamEntry[]][] | null;
        for (const [, entries] of reply ?? []) {
          for (const entry of entries) {
            const change = await this.decode(entry);
            if (change && !this.replica.apply(change)) {
              await this.resync();
              break;
            }
          }
        }
      } catch (err) {
        if (!this.running) return;
        this.report(err);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  /** Rebuilds the history from the whole stream (start-up, or after a missed entry). */
  private async resync(): Promise<void> {
    const entries = (await this.opts.redis.xrangeBuffer(this.opts.keys.stream, '-', '+')) as StreamEntry[];
    const changes: BoardChange[] = [];
    for (const entry of entries) {
      const change = await this.decode(entry);
      if (change) changes.push(change);
    }
    this.replica.rebuild(changes);
  }

  /** One entry as a change (and the stream position past it); undefined for an entry without a board. */
  private async decode([rawId, fields]: StreamEntry): Promise<BoardChange | undefined> {
    this.lastId = rawId.toString();
    const field = (name: string) => fields[fields.findIndex((f, i) => i % 2 === 0 && f.toString() === name) + 1];
    const version = Number(field('v')?.toString());
    const keyframe = field('k')?.toString() === 'k';
    const body = field('b');
    if (!body || !Number.isFinite(version)) return undefined;
    const message = JSON.parse((await inflate(body)).toString()) as BoardMessage;
    // The stream numbers every entry, so a delta's base is the entry before it.
    return { version, ...(keyframe ? {} : { base: version - 1 }), ...message };
  }

  private async refreshHealth(): Promise<void> {
    const json = await this.opts.redis.get(this.opts.keys.health);
    if (json) this.replica.setStatus({ health: JSON.parse(json) as BookHealth[] });
  }

  private readonly report = (err: unknown): void => {
    this.opts.onError?.(err);
  };
}
