/**
 * A whole app over a hand-built board, with a fresh SQLite store in a temp folder, the
 * in-process limiter and one key per tier: what route tests (and other engineers' tests)
 * start from. `restart()` reopens on the same store, as a server restart would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tier } from '@propsfeed/contract';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type AppDeps, createApp } from '../../src/app';
import type { CorsOrigins } from '../../src/cors';
import type { BoardSource, ProjectionSource } from '../../src/feed/types';
import { KeyCache } from '../../src/keys/cache';
import { type CreateKeyInput, issueKey } from '../../src/keys/issue';
import { MemoryLimiter } from '../../src/limits/memory';
import type { Limiter, LimitPolicy } from '../../src/limits/types';
import type { TrustProxy } from '../../src/net/trustProxy';
import type { BoardData } from '../../src/queries/deps';
import { openStore } from '../../src/store/kyselyStore';
import type { Store } from '../../src/store/types';
import { TestBoardSource } from './board';

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
  /** New free keys for everyone together; default the server's. */
  signupCeiling?: LimitPolicy;
  /** PROPS_TRUST_PROXY as parsed; default none. */
  trustProxy?: TrustProxy;
  /** Keep using this folder (for restart tests). */
  dataDir?: string;
  /** The stream's numbers (buffer cap, retention, ticks). */
  stream?: AppDeps['stream'];
  /** Client connections from one address at most (default net/connections.ts DEFAULT_PER_ADDRESS). */
  maxConnectionsPerAddress?: number;
}

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  limiter: Limiter;
  keysCache: KeyCache;
  source: BoardSource;
  dataDir: string;
  /** One plain key per tier. */
  keys: Record<Tier, string>;
  /** Makes another key (enterprise may set rpm, rpd, scanLimit). */
  createKey(input: Partial<CreateKeyInput> & { tier: Tier }): Promise<string>;
  /** `app.inject` with `Authorization: Bearer <key>` when a key is given. */
  get(url: string, key?: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** Closes the app, flushes usage and closes the store; removes the folder unless kept. */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export async function buildTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'propsfeed-test-'));
  const store = await openStore({ PROPS_DATA_DIR: dataDir, PROPS_DATABASE_URL: undefined });
  const limiter = new MemoryLimiter({ usage: store, flushEveryMs: 0 });
  const keysCache = new KeyCache(store);
  await keysCache.start(50);
  const source = opts.source ?? new TestBoardSource();
  const app = await createApp({
    store,
    limiter,
    keys: keysCache,
    source,
    projections: opts.projections,
    boardData: opts.boardData,
    now: opts.now,
    adminToken: opts.adminToken,
    corsOrigins: opts.corsOrigins,
    signupCeiling: opts.signupCeiling,
    trustProxy: opts.trustProxy,
    logLevel: opts.logStream ? 'warn' : 'silent',
    logStream: opts.logStream,
    stream: opts.stream,
    maxConnectionsPerAddress: opts.maxConnectionsPerAddress,
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
    keys,
    createKey,
    get: (url, key, headers = {}) =>
      app.inject({ method: 'GET', url, headers: key ? { authorization: `Bearer ${key}`, ...headers } : headers }),
    inject: (o) => app.inject(o),
    async close({ keepData = false } = {}) {
      await app.close();
      keysCache.stop();
      await limiter.close();
      await store.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
