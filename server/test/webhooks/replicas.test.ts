/**
 * Webhooks on PostgreSQL + Redis with two replicas (child processes running `serve`): every
 * replica serves the webhook routes, one (the holder of the webhook lease) produces and
 * delivers, so each event arrives exactly once, not once per replica. When that replica stops,
 * the other takes the lease and goes on from the stored cursor, still sending nothing twice.
 * The receiver verifies every delivery with the `standardwebhooks` package.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKey } from '../../src/keys/issue';
import { openStore } from '../../src/store/kyselyStore';
import { connectRedis, redisReady } from '../../src/store/redis';
import type { Store } from '../../src/store/types';
import { type Replica, startReplica } from '../cluster/replicas';
import {
  createTestSchema,
  dropRedisPrefix,
  enginesAvailable,
  TEST_REDIS_URL,
  type TestSchema,
  uniqueName,
} from '../shared/engines';
import { type Receiver, retriedOnly, startReceiver } from './receiver';

const available = await enginesAvailable({ postgres: true, redis: true });

describe.skipIf(!available)('webhooks on two replicas (PostgreSQL + Redis)', () => {
  const prefix = `${uniqueName('wh')}:`;
  let schema: TestSchema;
  let store: Store;
  let replicas: Replica[] = [];
  let receiver: Receiver;
  let key: string;

  beforeAll(async () => {
    schema = await createTestSchema('wh');
    store = await openStore({ PROPS_DATA_DIR: '', PROPS_DATABASE_URL: schema.url });
    key = (await issueKey(store, { tier: 'sharp', label: 'webhooks' })).created.key;
    const env = {
      PROPS_DATABASE_URL: schema.url,
      PROPS_REDIS_URL: TEST_REDIS_URL,
      PROPS_REDIS_PREFIX: prefix,
      PROPS_WEBHOOK_ALLOW_HTTP: '1',
    };
    const started = await Promise.allSettled([startReplica(env), startReplica(env)]);
    replicas = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    receiver = await startReceiver();
    // Each serves boards (the ingest leader's first ones come after its start-up backfill).
    for (const r of replicas) {
      const deadline = Date.now() + 150_000;
      while ((await fetch(`${r.url}/readyz`)).status !== 200) {
        if (Date.now() > deadline) throw new Error(`replica ${r.url} never ready:\n${r.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }, 240_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.kill()));
    await receiver?.close();
    await store?.close();
    await schema?.drop();
    await dropRedisPrefix(prefix);
  });

  let webhookId = '';
  /** A delivery's attempts, from its log on a replica (paged, newest first). */
  const attemptsOf = async (id: string) => {
    let before = '';
    for (;;) {
      const url = `${replicas[0]?.url}/api/v1/webhooks/${webhookId}/deliveries?limit=100${before && `&before=${before}`}`;
      const page = await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).json();
      const found = page.deliveries.find((d: { id: string }) => d.id === id);
      if (found) return found.attempts as number;
      if (!page.nextBefore) return 0;
      before = page.nextBefore;
    }
  };
  /** Ids that arrived more than once other than as a retry of the same message (two replicas sending it would be). */
  const duplicates = () => retriedOnly(receiver, attemptsOf);

  it('delivers each event once, whichever replica the endpoint was registered on, and goes on when the deliverer stops', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const res = await fetch(`${a.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['prop.line_moved', 'game.started', 'game.final'] }),
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    receiver.secrets.push(created.secret);
    webhookId = created.id;
    // The other replica sees the endpoint too.
    const listed = await (
      await fetch(`${b.url}/api/v1/webhooks`, { headers: { authorization: `Bearer ${key}` } })
    ).json();
    expect(listed.count).toBe(1);

    await receiver.waitFor((r) => r.length >= 30, 60_000);
    expect(receiver.received.filter((r) => !r.event)).toEqual([]);
    expect(await duplicates()).toEqual([]);

    // The replica delivering (the webhook lease's holder: its token starts with its pid) stops; the other goes on.
    const redis = connectRedis(TEST_REDIS_URL);
    await redisReady(redis);
    const token = await redis.get(`${prefix}webhooks:leader`);
    redis.disconnect();
    const leader = replicas.find((r) => token?.startsWith(`${r.pid}-`));
    if (!leader) throw new Error(`no replica holds the webhook lease (${token})`);
    const other = leader === a ? b : a;
    const before = receiver.received.length;
    await leader.kill();
    replicas = [other];
    // The simulated books move lines in bursts a few minutes apart (leader, then follower), so the
    // next 30 may be a burst away: the test asserts the delivering goes on, not how soon.
    await receiver.waitFor((r) => r.length >= before + 30, 180_000);
    expect(receiver.received.filter((r) => !r.event)).toEqual([]);
    expect(await duplicates()).toEqual([]);
    expect(receiver.events()).toHaveLength(new Set(receiver.received.map((r) => r.id)).size);
  }, 300_000);
});
