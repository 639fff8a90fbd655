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
 */
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import type { Redis } from 'ioredis';
import { type Board, type BoardGame, type BookHealth, EMPTY_BOARD } from '../feed/types';

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/** History kept in the stream and in memory: the free tier's 10-minute delay, plus margin. */
export const DEFAULT_RETENTION_MS = 15 * 60_000;

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

/** One stream entry, before compression. */
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
  /** JSON of each game as last published, to send only what changed. */
  private published = new Map<string, string>();
  private readonly jsonOf = new WeakMap<BoardGame, string>();
  private lastKeyframeAt = 0;

  constructor(private readonly opts: BoardPublisherOptions) {
    if (!('pfPublishBoard' in opts.redis))
      opts.redis.defineCommand('pfPublishBoard', { numberOfKeys: 4, lua: PUBLISH });
    this.redis = opts.redis as PublishRedis;
  }

  /** Appends the board; its cluster-wide version, or null when this replica no longer leads. */
  async publish(board: Board, health: BookHealth[], nowMs = Date.now()): Promise<number | null> {
    const keyframe = this.published.size === 0 || nowMs - this.lastKeyframeAt >= (this.opts.keyframeEveryMs ?? 60_000);
    const next = new Map<string, string>();
    const games: BoardGame[] = [];
    for (const game of board.games) {
      let json = this.jsonOf.get(game);
      if (json === undefined) {
        json = JSON.stringify(game);
        this.jsonOf.set(game, json);
      }
      next.set(game.id, json);
      if (keyframe || this.published.get(game.id) !== json) games.push(game);
    }
    const message: BoardMessage = { fetchedAt: board.fetchedAt, order: board.games.map((g) => g.id), games, health };
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
      this.published = new Map();
      throw err;
    }
    if (version === null) {
      this.published = new Map();
      return null;
    }
    this.published = next;
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
  /** How often book health is refreshed from the leader. */
  healthEveryMs?: number;
  onError?: (err: unknown) => void;
}

type StreamEntry = [id: Buffer, fields: Buffer[]];

/** Every replica's board: the stream, applied in order, with the history `at()` reads. */
export class ReplicatedBoardSource {
  private board: Board = EMPTY_BOARD;
  /** Boards in stream order, the oldest first; pruned to the retention. */
  private history: Board[] = [];
  private bookHealth: BookHealth[] = [];
  private lastId = '0';
  private readonly listeners = new Set<(board: Board) => void>();
  private running = false;
  private loop: Promise<void> | undefined;
  private healthTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: ReplicatedBoardSourceOptions) {}

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
    return this.board;
  }

  at(atMs: number): Board {
    for (let i = this.history.length - 1; i >= 0; i--) {
      const board = this.history[i] as Board;
      if (board.fetchedAt <= atMs) return board;
    }
    return EMPTY_BOARD;
  }

  subscribe(listener: (board: Board) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  health(): BookHealth[] {
    return this.bookHealth;
  }

  ready(): boolean {
    return this.board.version > 0;
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
            if (!(await this.apply(entry))) {
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
    const known = this.history;
    this.history = [];
    let applied = false;
    for (const entry of entries) applied = (await this.apply(entry, false)) || applied;
    // Boards older than the stream (this replica saw them live) stay, so `at()` never regresses.
    const oldest = this.history[0];
    if (oldest) this.history = [...known.filter((b) => b.version < oldest.version), ...this.history];
    else this.history = known;
    if (applied) this.emit();
  }

  /** Applies one entry; false when it is a delta on a board this replica does not have. */
  private async apply([rawId, fields]: StreamEntry, notify = true): Promise<boolean> {
    const id = rawId.toString();
    const field = (name: string) => fields[fields.findIndex((f, i) => i % 2 === 0 && f.toString() === name) + 1];
    const version = Number(field('v')?.toString());
    const keyframe = field('k')?.toString() === 'k';
    const body = field('b');
    this.lastId = id;
    if (!body || !Number.isFinite(version)) return true;
    const base = this.history.at(-1);
    // A delta whose base is missing: skip it while rebuilding (a keyframe follows), else resync.
    if (!keyframe && base?.version !== version - 1) return !notify;
    const message = JSON.parse((await inflate(body)).toString()) as BoardMessage;
    const byId = new Map<string, BoardGame>();
    if (!keyframe && base) for (const g of base.games) byId.set(g.id, g);
    for (const g of message.games) byId.set(g.id, g);
    const games = message.order.map((gid) => byId.get(gid)).filter((g): g is BoardGame => g !== undefined);
    const gameById = new Map<string, BoardGame>();
    for (const g of games) {
      gameById.set(g.id, g);
      for (const alias of g.aliases) gameById.set(alias, g);
    }
    const board: Board = { version, fetchedAt: message.fetchedAt, games, gameById };
    this.history.push(board);
    this.prune();
    this.board = board;
    this.bookHealth = message.health;
    if (notify) this.emit();
    return true;
  }

  /** Drops boards older than the retention, keeping the one `at()` needs at its edge. */
  private prune(): void {
    const cutoff = Date.now() - (this.opts.retentionMs ?? DEFAULT_RETENTION_MS);
    let drop = 0;
    while (drop + 1 < this.history.length && (this.history[drop + 1] as Board).fetchedAt <= cutoff) drop++;
    if (drop > 0) this.history.splice(0, drop);
  }

  private async refreshHealth(): Promise<void> {
    const json = await this.opts.redis.get(this.opts.keys.health);
    if (json) this.bookHealth = JSON.parse(json) as BookHealth[];
  }

  private emit(): void {
    for (const listener of this.listeners) {
      try {
        listener(this.board);
      } catch (err) {
        this.report(err);
      }
    }
  }

  private readonly report = (err: unknown): void => {
    this.opts.onError?.(err);
  };
}
