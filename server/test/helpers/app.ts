/**
 * A whole app over a hand-built board, with a fresh SQLite store in a temp folder (or the
 * PostgreSQL `databaseUrl` names), the stream's event log in it, the in-process limiter and
 * one key per tier: what route tests (and other engineers' tests) start from. `restart()`
 * reopens on the same store, as a server restart would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tier } from '@propsfeed/contract';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createApp } from '../../src/app';
import type { BoardSource, ProjectionSource } from '../../src/board/types';
import type { CorsOrigins } from '../../src/cors';
import { KeyCache } from '../../src/keys/cache';
import { type CreateKeyInput, issueKey } from '../../src/keys/issue';
import { MemoryLimiter } from '../../src/limits/memory';
import type { Limiter, LimitPolicy } from '../../src/limits/types';
import { createLogger } from '../../src/log/logger';
import type { TrustProxy } from '../../src/net/trustProxy';
import type { BoardData } from '../../src/queries/deps';
import { assembleRuntime, type Runtime, type RuntimeParts } from '../../src/runtime';
import { Shutdown } from '../../src/shutdown';
import { type Db, openDb } from '../../src/store/db';
import { createKyselyStore, type StoreSchema } from '../../src/store/kyselyStore';
import type { Store } from '../../src/store/types';
import { StreamLog, type StreamLogOptions } from '../../src/stream/log';
import type { WebhookOptions, WebhookService } from '../../src/webhooks/service';
import { createWebhookStore } from '../../src/webhooks/store';
import type { Resolver } from '../../src/webhooks/targets';
import { TestBoardSource } from './board';

/**
 * Names tests may register webhooks under, and what they resolve to: never a lookup that
 * leaves the machine. Any other name does not resolve.
 */
export const OFFLINE_NAMES: Record<string, string> = { localhost: '127.0.0.1' };

export function offlineResolver(names: Record<string, string> = OFFLINE_NAMES): Resolver {
  return async (host) => {
    const address = names[host];
    if (address === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    }
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
}

export interface TestAppOptions {
  source?: BoardSource;
  projections?: ProjectionSource;
  /** Game logs, line history and openings for the board routes. */
  boardData?: BoardData;
  /** The app's clock; default Date.now. */
  now?: () => number;
  adminToken?: string;
  /** Where warnings and errors are logged; default nowhere. */
  logStream?: NodeJS.WritableStream;
  /** PROPS_CORS_ORIGINS as parsed; default any origin. */
  corsOrigins?: CorsOrigins;
  /** PROPS_ALLOWED_HOSTS and PROPS_ALLOWED_ORIGINS as parsed; default none (loopback only). */
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  /** New free keys for everyone together; default the server's. */
  signupCeiling?: LimitPolicy;
  /** PROPS_TRUST_PROXY as parsed; default none. */
  trustProxy?: TrustProxy;
  /** Keep using this folder (for restart tests). */
  dataDir?: string;
  /** The stream's numbers (buffer cap, retention, ticks). */
  stream?: RuntimeParts['stream'];
  /** Client connections from one address at most (default net/connections.ts DEFAULT_PER_ADDRESS). */
  maxConnectionsPerAddress?: number;
  /** A PostgreSQL store (a test schema's URL) instead of SQLite in the folder. */
  databaseUrl?: string;
  /** The stream event log's options (default: 6 hours, written by this app); false for none. */
  streamLog?: Partial<StreamLogOptions> | false;
  /**
   * Webhooks' options over the app's store (default: http:// and loopback allowed, names
   * resolved by `offlineResolver`); false for none.
   */
  webhooks?: Partial<WebhookOptions> | false;
}

export interface TestApp {
  app: FastifyInstance;
  /** The services the app serves over (the board, the stream hub, webhooks); `close()` stops them. */
  runtime: Runtime;
  store: Store;
  limiter: Limiter;
  keysCache: KeyCache;
  source: BoardSource;
  dataDir: string;
  /** The store's database (the stream log's tables are in it). */
  db: Db;
  streamLog: StreamLog | undefined;
  /** The app's webhooks (unless built without). */
  webhooks: WebhookService | undefined;
  /** One plain key per tier. */
  keys: Record<Tier, string>;
  /** Makes another key (enterprise may set rpm, rpd, scanLimit). */
  createKey(input: Partial<CreateKeyInput> & { tier: Tier }): Promise<string>;
  /** `app.inject` with `Authorization: Bearer <key>` when a key is given. */
  get(url: string, key?: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** Closes the app, then the runtime (flushes usage, closes the store); removes the folder unless kept. */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export async function buildTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'propsfeed-test-'));
  const shutdown = new Shutdown();
  const db = await openDb<StoreSchema>({ databaseUrl: opts.databaseUrl, dataDir });
  const store = createKyselyStore(db);
  shutdown.defer(() => store.close());
  const limiter = new MemoryLimiter({ usage: store, flushEveryMs: 0 });
  shutdown.defer(() => limiter.close());
  const keysCache = new KeyCache(store);
  await keysCache.start(50);
  shutdown.defer(() => keysCache.stop());
  const streamLog =
    opts.streamLog === false
      ? undefined
      : new StreamLog(db as unknown as Db, {
          retainMs: 6 * 3_600_000,
          writes: () => true,
          now: opts.now ?? Date.now,
          ...opts.streamLog,
        });
  if (streamLog) shutdown.defer(() => streamLog.close());
  const source = opts.source ?? new TestBoardSource();
  const logger = createLogger({
    level: opts.logStream ? 'warn' : 'silent',
    ...(opts.logStream ? { stream: opts.logStream } : {}),
  });
  const runtime = assembleRuntime(
    {
      store,
      limiter,
      keys: keysCache,
      feed: source,
      projections: opts.projections,
      boardData: opts.boardData,
      now: opts.now,
      stream: opts.stream,
      streamLog,
      ...(opts.webhooks === false
        ? {}
        : {
            webhooks: {
              store: createWebhookStore(db as unknown as Db),
              ...opts.webhooks,
              targets: { allowHttp: true, resolve: offlineResolver(), ...opts.webhooks?.targets },
            },
          }),
      logger,
    },
    shutdown,
  );
  const app = await createApp(runtime, {
    adminToken: opts.adminToken,
    corsOrigins: opts.corsOrigins,
    allowedHosts: opts.allowedHosts,
    allowedOrigins: opts.allowedOrigins,
    signupCeiling: opts.signupCeiling,
    trustProxy: opts.trustProxy,
    maxConnectionsPerAddress: opts.maxConnectionsPerAddress,
    logger,
  });
  const createKey: TestApp['createKey'] = async (input) => {
    const { created, record } = await issueKey(store, { label: `test ${input.tier}`, ...input });
    keysCache.put(record);
    return created.key;
  };
  const existing = opts.dataDir !== undefined ? await store.listKeys() : [];
  const keys = {} as Record<Tier, string>;
  for (const tier of ['free', 'pro', 'sharp', 'enterprise'] as const) {
    keys[tier] = existing.length > 0 ? '' : await createKey({ tier });
  }
  return {
    app,
    store,
    limiter,
    keysCache,
    source,
    dataDir,
    db: db as unknown as Db,
    streamLog,
    runtime,
    webhooks: runtime.webhooks,
    keys,
    createKey,
    get: (url, key, headers = {}) =>
      app.inject({ method: 'GET', url, headers: key ? { authorization: `Bearer ${key}`, ...headers } : headers }),
    inject: (o) => app.inject(o),
    async close({ keepData = false } = {}) {
      await app.close();
      await runtime.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
