/**
 * Several server replicas (child processes) on PostgreSQL + Redis: limits exact across them,
 * key revocation reaching all of them, and each engine's outage as the clients see it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueKey } from '../../src/keys/issue';
import { utcDay } from '../../src/limits/types';
import { openStore } from '../../src/store/kyselyStore';
import { connectRedis, redisReady } from '../../src/store/redis';
import type { Store } from '../../src/store/types';
import { REPEATED_POINTS_SQL } from '../helpers/history';
import {
  createTestSchema,
  dropRedisPrefix,
  enginesAvailable,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  type TestSchema,
  uniqueName,
} from '../shared/engines';
import { startTcpProxy, type TcpProxy } from '../shared/tcp-proxy';
import { type Replica, replicaNow, startReplica } from './replicas';

const available = await enginesAvailable({ postgres: true, redis: true });
const ADMIN_TOKEN = 'cluster-test-admin-token';

describe.skipIf(!available)('replicas on PostgreSQL + Redis (multi-process)', () => {
  const prefix = `${uniqueName('mp')}:`;
  let schema: TestSchema;
  let store: Store;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let replicas: Replica[] = [];
  /** Keys made before the replicas start, so every replica knows them from its first request. */
  let keys: Record<
    'limit' | 'revoke' | 'redis' | 'postgres' | 'board' | 'delayed',
    { key: string; id: string; prefix: string }
  >;

  async function key(tier: 'free' | 'sharp', label: string): Promise<{ key: string; id: string; prefix: string }> {
    const { created, record } = await issueKey(store, { tier, label });
    return { key: created.key, id: record.id, prefix: record.keyPrefix };
  }
  const get = (replica: Replica, path: string, apiKey: string) =>
    fetch(`${replica.url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
  const status = async (replica: Replica, path: string, apiKey: string) => (await get(replica, path, apiKey)).status;

  beforeAll(async () => {
    schema = await createTestSchema('mp');
    store = await openStore({ PROPS_DATA_DIR: '', PROPS_DATABASE_URL: schema.url });
    keys = {
      limit: await key('free', 'limit test'),
      revoke: await key('sharp', 'to revoke'),
      redis: await key('sharp', 'redis outage'),
      postgres: await key('sharp', 'postgres outage'),
      board: await key('sharp', 'board reads'),
      delayed: await key('free', 'delayed reads'),
    };
    const pg = new URL(TEST_DATABASE_URL);
    const redis = new URL(TEST_REDIS_URL);
    pgProxy = await startTcpProxy(pg.hostname, Number(pg.port || 5432));
    redisProxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
    const viaPg = new URL(schema.url);
    viaPg.host = `127.0.0.1:${pgProxy.port}`;
    const env = {
      PROPS_DATABASE_URL: viaPg.toString(),
      PROPS_REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      PROPS_REDIS_PREFIX: prefix,
      PROPS_ADMIN_TOKEN: ADMIN_TOKEN,
    };
    // Every start settles before a failure is reported, so afterAll stops each one that started.
    const started = await Promise.allSettled([startReplica(env), startReplica(env), startReplica(env)]);
    replicas = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.kill()));
    await pgProxy?.close();
    await redisProxy?.close();
    await store?.close();
    await schema?.drop();
    await dropRedisPrefix(prefix);
  });

  it('admits exactly 30 of 40 parallel requests spread over the replicas on a 30/min key', async () => {
    const free = keys.limit.key;
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => status(replicas[i % replicas.length] as Replica, '/api/v1/me', free)),
    );
    expect(
      statuses.filter((s) => s === 200),
      JSON.stringify(statuses),
    ).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const me = await (await get(replicas[0] as Replica, '/api/v1/me', free)).json();
    expect(me).toMatchObject({ error: 'rate_limited' });
  });

  it('refuses a key revoked through one replica on every other replica within a second', async () => {
    const target = keys.revoke;
    for (const r of replicas) expect(await status(r, '/api/v1/sports', target.key)).toBe(200);
    const revoked = await fetch(`${replicas[0]?.url}/admin/v1/keys/${target.prefix}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(revoked.status).toBe(200);
    await vi.waitFor(
      async () => {
        for (const r of replicas.slice(1)) expect(await status(r, '/api/v1/sports', target.key)).toBe(401);
      },
      { timeout: 1_000, interval: 25 },
    );
  });

  it('answers 503 upstream_unavailable on keyed routes while Redis is down, and recovers by itself', async () => {
    const sharp = keys.redis.key;
    redisProxy.down();
    try {
      for (const r of replicas) {
        const res = await get(r, '/api/v1/sports', sharp);
        expect(res.status).toBe(503);
        expect(await res.json()).toMatchObject({ error: 'upstream_unavailable' });
        expect((await fetch(`${r.url}/healthz`)).status).toBe(200);
      }
    } finally {
      redisProxy.up();
    }
    await vi.waitFor(
      async () => {
        for (const r of replicas) expect(await status(r, '/api/v1/sports', sharp)).toBe(200);
      },
      { timeout: 15_000, interval: 200 },
    );
  });

  it('keeps serving while PostgreSQL is down and writes the usage held meanwhile when it is back', async () => {
    const { key: sharp, id } = keys.postgres;
    let counted = 0;
    const ok = async (r: Replica, path: string) => {
      const s = await status(r, path, sharp);
      if (s === 200) counted++;
      return s;
    };
    for (const r of replicas) expect(await ok(r, '/api/v1/sports')).toBe(200);
    pgProxy.down();
    try {
      for (let i = 0; i < 9; i++) expect(await ok(replicas[i % 3] as Replica, '/api/v1/sports')).toBe(200);
      for (const r of replicas) expect(await ok(r, '/api/v1/games?sport=nba')).toBe(200);
      // What only the store holds (line history) is a 503, not a 500; the request still counts.
      const since = new Date(replicaNow() - 3_600_000).toISOString();
      const movement = await get(replicas[0] as Replica, `/api/v1/props/movement?sport=nba&since=${since}`, sharp);
      counted++;
      expect([movement.status, (await movement.json()).error]).toEqual([503, 'upstream_unavailable']);
      const me = await get(replicas[1] as Replica, '/api/v1/me', sharp);
      expect(me.status).toBe(200);
      counted++;
      expect((await me.json()).usage.today).toBe(counted);
    } finally {
      pgProxy.up();
    }
    await vi.waitFor(async () => expect(await store.usageOn(id, utcDay(replicaNow()))).toBe(counted), {
      timeout: 15_000,
      interval: 200,
    });
  });

  /** Each replica's board version (from /readyz), or null while it has none. */
  const versions = async (among = replicas) =>
    Promise.all(
      among.map(async (r) => {
        const res = await fetch(`${r.url}/readyz`);
        return res.status === 200 ? ((await res.json()) as { boardVersion: number }).boardVersion : null;
      }),
    );

  /** The same path read from every replica while all of them hold one board version. */
  async function readAtOneVersion(path: string, apiKey: string, among = replicas): Promise<string[]> {
    for (;;) {
      const before = await versions(among);
      const bodies = await Promise.all(among.map(async (r) => (await get(r, path, apiKey)).text()));
      const after = await versions(among);
      if (before[0] !== null && [...before, ...after].every((v) => v === before[0])) return bodies;
    }
  }

  it('answers the same board, realtime and delayed, on every replica', async () => {
    await vi.waitFor(async () => expect((await versions()).every((v) => v !== null)).toBe(true), {
      timeout: 120_000,
      interval: 500,
    });
    // Fields derived from game logs (projections, the estimates and edges) reach each replica on
    // its own refresh, within seconds: the board is the same once they have.
    await vi.waitFor(
      async () => {
        const realtime = await readAtOneVersion('/api/v1/props?sport=nba&limit=500', keys.board.key);
        expect(JSON.parse(realtime[0] as string).rows.length).toBeGreaterThan(0);
        expect(new Set(realtime).size).toBe(1);
      },
      { timeout: 30_000, interval: 500 },
    );
    const delayed = await readAtOneVersion('/api/v1/games?sport=nba', keys.delayed.key);
    expect(JSON.parse(delayed[0] as string)).toMatchObject({ delayed: true });
    expect(new Set(delayed).size).toBe(1);
  }, 150_000);

  it('hands ingest to another replica within 10 s when the leader is killed, with no gap in history', async () => {
    const redis = connectRedis(TEST_REDIS_URL);
    try {
      await redisReady(redis);
      const leaseKey = `${prefix}feed:leader`;
      const token = (await redis.get(leaseKey)) as string;
      const leader = replicas.find((r) => token.startsWith(`${r.pid}-`)) as Replica;
      expect(leader).toBeDefined();
      const survivors = replicas.filter((r) => r !== leader);
      const [before] = await versions(survivors);
      const history = new pg.Client({ connectionString: schema.url });
      await history.connect();
      try {
        await leader.kill('SIGKILL');
        const killedAt = Date.now();
        const killedAtReplicaTime = replicaNow();
        let tookOverAt = 0;
        await vi.waitFor(
          async () => {
            const holder = await redis.get(leaseKey);
            expect(holder !== null && holder !== token).toBe(true);
            tookOverAt ||= Date.now();
          },
          { timeout: 20_000, interval: 100 },
        );
        expect(tookOverAt - killedAt).toBeLessThanOrEqual(10_000);
        // The new leader's boards reach every survivor, numbered on from the old leader's.
        await vi.waitFor(
          async () => {
            const now = await versions(survivors);
            const logs = survivors.map((r) => r.output().slice(-1500)).join('\n---\n');
            expect(
              now.every((v) => v !== null && v > (before as number)),
              `versions ${now} after ${before}:\n${logs}`,
            ).toBe(true);
          },
          { timeout: 60_000, interval: 250 },
        );
        const newBoardAt = Date.now();
        console.log(
          `leader killed: lease taken after ${tookOverAt - killedAt} ms, first new board after ${newBoardAt - killedAt} ms`,
        );
        // History goes on past the takeover: the new leader records what changes from then on.
        await vi.waitFor(
          async () => {
            const { rows } = await history.query('select max("at") as last from line_history');
            expect(Number(rows[0]?.last)).toBeGreaterThan(killedAtReplicaTime);
          },
          { timeout: 60_000, interval: 500 },
        );
        // ...and only that: no line is recorded again at the price it already had (a new leader
        // starting from nothing would record every line once more at the takeover).
        const { rows: repeats } = await history.query(REPEATED_POINTS_SQL);
        expect(Number(repeats[0]?.n)).toBe(0);
        // The board is the same at once; what derives from game logs (projections, estimates and
        // edges, from logs the new leader records as games go final) reaches each replica on its
        // own refresh, within seconds.
        const withoutProjections = (body: string) =>
          JSON.stringify(
            (JSON.parse(body) as { rows: Record<string, unknown>[] }).rows.map(
              ({ propsfeedProjection: _p, probabilities: _e, edge: _g, ...row }) => row,
            ),
          );
        const after = await readAtOneVersion('/api/v1/props?sport=nba&limit=500', keys.board.key, survivors);
        expect(new Set(after.map(withoutProjections)).size).toBe(1);
        await vi.waitFor(
          async () => {
            const bodies = await readAtOneVersion('/api/v1/props?sport=nba&limit=500', keys.board.key, survivors);
            expect(new Set(bodies).size).toBe(1);
          },
          { timeout: 30_000, interval: 500 },
        );
      } finally {
        await history.end();
      }
    } finally {
      redis.disconnect();
    }
  }, 150_000);
});
