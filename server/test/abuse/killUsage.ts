/**
 * `kill -9` under load: a server in a child process answers a stream of keyed requests and is
 * killed mid-stream. What its store holds afterwards is compared with what clients were
 * answered: the embedded mode may lose at most 100 ms of counted requests; the shared mode
 * (Redis counts, PostgreSQL keeps) loses none, since another replica writes what it counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../../src/config';
import { openKeyAdmin } from '../../src/keys/keyAdmin';
import { RedisLimiter } from '../../src/limits/redis';
import { utcDay } from '../../src/limits/types';
import { openStore } from '../../src/store/kyselyStore';
import { connectRedis, redisReady } from '../../src/store/redis';
import type { Store } from '../../src/store/types';
import { loopbackRequest } from '../helpers/loopback';
import { startServeChild } from '../helpers/serveChild';
import { createTestSchema, dropRedisPrefix, TEST_REDIS_URL, type TestSchema, uniqueName } from '../shared/engines';

const CONNECTIONS = 16;
const LOAD_MS = 2_500;
const folders: string[] = [];
export function killUsageSuite(enginesReachable: boolean): void {
  describe('kill -9 under load', () => {
    afterAll(() => {
      for (const dir of folders) rmSync(dir, { recursive: true, force: true });
    });

    /** Keyed requests on `CONNECTIONS` connections until the server dies; the answers that were 200. */
    async function loadUntilKilled(
      env: Record<string, string>,
      key: string,
    ): Promise<{ answered: number; perSecond: number }> {
      const server = await startServeChild(env, false);
      const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
      const ask = () =>
        loopbackRequest({ port: server.port, path: '/api/v1/me', headers: { authorization: `Bearer ${key}` }, agent });
      expect((await ask()).status).toBe(200);
      let answered = 1;
      let alive = true;
      const started = performance.now();
      const clients = Array.from({ length: CONNECTIONS }, async () => {
        while (alive) {
          try {
            const res = await ask();
            if (res.status !== 200) throw new Error(`answered ${res.status}: ${res.body}`);
            answered += 1;
          } catch (err) {
            if (alive) throw err;
          }
        }
      });
      await sleep(LOAD_MS);
      const at = performance.now();
      const counted = answered;
      alive = false;
      await server.kill();
      await Promise.all(clients);
      agent.destroy();
      expect(answered - counted).toBeLessThanOrEqual(CONNECTIONS);
      return { answered, perSecond: (answered / (at - started)) * 1000 };
    }

    /** A key with room for any load, made in the store before the server starts; its id. */
    async function loadKey(config: Config): Promise<{ key: string; keyId: string }> {
      const admin = await openKeyAdmin(config);
      const created = await admin.create({ tier: 'enterprise', label: 'load', rpm: 100_000_000, rpd: 100_000_000 });
      await admin.close();
      const store = await openStore(config);
      const keyId = (await store.listKeys()).find((k) => k.keyPrefix === created.keyPrefix)?.id ?? '';
      await store.close();
      return { key: created.key, keyId };
    }

    it('loses at most 100 ms of counted requests in the embedded mode', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-kill-'));
      folders.push(dataDir);
      const config = loadConfig({ PROPS_DATA_DIR: dataDir });
      const { key, keyId } = await loadKey(config);
      const day = utcDay(Date.now());
      const { answered, perSecond } = await loadUntilKilled(
        { PROPS_DATA_DIR: dataDir, PROPS_BOOKS: 'prizepicks', PROPS_PRIZEPICKS_URL: 'http://127.0.0.1:9' },
        key,
      );
      const store: Store = await openStore(config);
      const stored = await store.usageOn(keyId, day);
      await store.close();
      const lostMs = ((answered - stored) / perSecond) * 1000;
      console.log(
        `kill -9, embedded: ${answered} requests answered (${Math.round(perSecond)}/s), ${stored} stored, ` +
          `${answered - stored} lost = ${lostMs.toFixed(0)} ms of requests`,
      );
      expect(lostMs).toBeLessThanOrEqual(100);
    }, 60_000);

    it.skipIf(!enginesReachable)(
      'loses none in the shared mode',
      async () => {
        const schema: TestSchema = await createTestSchema('kill');
        const prefix = `${uniqueName('kill')}:`;
        const redis = connectRedis(TEST_REDIS_URL);
        const dataDir = mkdtempSync(join(tmpdir(), 'propsfeed-kill-shared-'));
        folders.push(dataDir);
        try {
          const config = loadConfig({ PROPS_DATABASE_URL: schema.url });
          const { key, keyId } = await loadKey(config);
          const day = utcDay(Date.now());
          const { answered, perSecond } = await loadUntilKilled(
            {
              PROPS_DATA_DIR: dataDir,
              PROPS_DATABASE_URL: schema.url,
              PROPS_REDIS_URL: TEST_REDIS_URL,
              PROPS_REDIS_PREFIX: prefix,
              PROPS_BOOKS: 'prizepicks',
              PROPS_PRIZEPICKS_URL: 'http://127.0.0.1:9',
            },
            key,
          );
          // Another replica's next flush writes what the dead one counted in Redis.
          await redisReady(redis);
          const store = await openStore(config);
          const replica = new RedisLimiter({ redis, usage: store, prefix, flushEveryMs: 0 });
          await replica.flush();
          const stored = await store.usageOn(keyId, day);
          await store.close();
          console.log(`kill -9, shared: ${answered} requests answered (${Math.round(perSecond)}/s), ${stored} stored`);
          expect(stored).toBeGreaterThanOrEqual(answered);
          expect(stored - answered).toBeLessThanOrEqual(CONNECTIONS);
        } finally {
          redis.disconnect();
          await dropRedisPrefix(prefix);
          await schema.drop();
        }
      },
      60_000,
    );
  });
}
