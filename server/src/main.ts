/** config → runtime → app → listen. `props serve` calls `serve()`. */
import type { Tier } from '@propsfeed/contract';
import { TIERS } from '@propsfeed/contract';
import { createApp } from './app';
import { type Config, ConfigError, loadConfig } from './config';
import { type Board, propCount } from './feed/types';
import { type CreatedKeyResult, issueKey } from './keys/issue';
import { createLogger } from './log/logger';
import { LOOPBACK_HOSTS } from './net/hostGuard';
import { openRuntime, type Runtime } from './runtime';
import type { WebhookClock } from './webhooks/clock';

export interface ServeOptions {
  port?: number;
  /** How the user runs the CLI, repeated in the first start's "Try it" line; default `props`. */
  cli?: string;
  /** The clock (default Date.now): the multi-process tests set their replicas' to a busy hour of the simulated day. */
  now?: () => number;
  /** The clock webhook retries run on (default the real one): the restart test speeds it up. */
  webhookClock?: WebhookClock;
}

/** On the first start (no keys yet): one demo key per tier, printed once. */
async function createDemoKeys(runtime: Runtime): Promise<CreatedKeyResult[]> {
  if ((await runtime.store.listKeys()).length > 0) return [];
  const created: CreatedKeyResult[] = [];
  for (const tier of TIERS) {
    const { created: key, record } = await issueKey(runtime.store, { tier: tier as Tier, label: `demo ${tier}` });
    runtime.keys.put(record);
    created.push(key);
  }
  return created;
}

function demoKeysText(keys: CreatedKeyResult[], address: string, cli: string): string {
  const width = Math.max(...keys.map((k) => k.tier.length));
  const sharp = keys.find((k) => k.tier === 'sharp') ?? keys[0];
  // The CLI's default server is http://127.0.0.1:8787; name any other address.
  const cliEnv = address === 'http://127.0.0.1:8787' ? '' : `PROPS_BASE_URL=${address} `;
  const lines = [
    '',
    'First start: one demo key per tier (shown only now; the store keeps only their hashes):',
    ...keys.map((k) => `  ${k.tier.padEnd(width)}  ${k.key}`),
    '',
    'Try it:',
    `  curl -H "Authorization: Bearer ${sharp?.key}" "${address}/api/v1/games?sport=nba"`,
    `  ${cliEnv}PROPS_API_KEY=${sharp?.key} ${cli} games --sport nba`,
    `Board: ${address}/  (paste a key above)`,
    `Docs: ${address}/docs`,
    '',
  ];
  return lines.join('\n');
}

/** The board at start-up in one line: its size, and where its lines come from. */
export function boardLine(board: Board, config: Pick<Config, 'PROPS_BOOKS' | 'PROPS_SIM_SEED'>): string {
  const source =
    config.PROPS_BOOKS.length > 0
      ? `polling ${config.PROPS_BOOKS.join(' and ')}`
      : `simulated books, seed ${config.PROPS_SIM_SEED}`;
  if (board.version === 0) return `board: loading (${source}); /readyz reports it once the first poll is in`;
  const count = (x: number, what: string) => `${x.toLocaleString('en-US')} ${what}${x === 1 ? '' : 's'}`;
  return `board: ${count(propCount(board), 'prop')} in ${count(board.games.length, 'game')} (${source})`;
}

/** An address the server cannot have is the operator's to fix: say which, and how. */
function listenError(err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const cannot = `cannot listen on ${host}:${port}`;
  if (code === 'EADDRINUSE') {
    return new ConfigError(
      `${cannot}: the port is in use (another server already running?). Stop it, or choose another port with --port or PROPS_PORT.`,
    );
  }
  if (code === 'EACCES') {
    return new ConfigError(`${cannot}: permission denied. Choose a port above 1023 with --port or PROPS_PORT.`);
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new ConfigError(`${cannot}: this machine has no such address. Set PROPS_HOST to one of its addresses.`);
  }
  return err;
}

export async function serve(opts: ServeOptions = {}, config: Config = loadConfig()): Promise<void> {
  const logger = createLogger({ level: config.PROPS_LOG_LEVEL });
  const runtime = await openRuntime(config, {
    logger,
    runFeed: true,
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.webhookClock ? { webhookClock: opts.webhookClock } : {}),
  });
  const app = await createApp({
    store: runtime.store,
    limiter: runtime.limiter,
    keys: runtime.keys,
    source: runtime.feed,
    projections: runtime.projections,
    boardData: runtime.boardData,
    entries: runtime.entries,
    streamTokens: runtime.streamTokens,
    streamSlots: runtime.streamSlots,
    streamLog: runtime.streamLog,
    webhooks: runtime.webhooks,
    now: runtime.now,
    boardNow: runtime.boardNow,
    adminToken: config.PROPS_ADMIN_TOKEN,
    corsOrigins: config.PROPS_CORS_ORIGINS,
    allowedHosts: config.PROPS_ALLOWED_HOSTS,
    allowedOrigins: config.PROPS_ALLOWED_ORIGINS,
    signupCeiling: { perMinute: config.PROPS_SIGNUP_PER_MINUTE, perDay: config.PROPS_SIGNUP_PER_DAY },
    trustProxy: config.PROPS_TRUST_PROXY,
    maxConnections: config.PROPS_MAX_CONNECTIONS,
    maxConnectionsPerAddress: config.PROPS_MAX_CONNECTIONS_PER_ADDRESS,
    logLevel: config.PROPS_LOG_LEVEL,
    logger,
  });
  const port = opts.port ?? config.PROPS_PORT;
  let address: string;
  try {
    address = await app.listen({ port, host: config.PROPS_HOST });
  } catch (err) {
    await runtime.close();
    throw listenError(err, config.PROPS_HOST, port);
  }
  process.stdout.write(`propsfeed listening on ${address}\n`);
  if (
    !LOOPBACK_HOSTS.includes(config.PROPS_HOST.replace(/^([^[].*:.*)$/, '[$1]')) &&
    config.PROPS_ALLOWED_HOSTS.length === 0
  ) {
    app.log.warn(
      `listening beyond loopback (PROPS_HOST=${config.PROPS_HOST}): /mcp answers only requests addressed to localhost, ` +
        '127.0.0.1 or [::1] until PROPS_ALLOWED_HOSTS names the host its clients use',
    );
  }
  process.stdout.write(`${boardLine(runtime.feed.current(), config)}\n`);
  const demo = await createDemoKeys(runtime);
  if (demo.length > 0) process.stdout.write(demoKeysText(demo, address, opts.cli ?? 'props'));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'draining');
    // Close drains in-flight requests; then usage is flushed and the store closed.
    await app.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
