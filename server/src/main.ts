/**
 * config → runtime (every service, runtime.ts) → app over it (routes only, app.ts) → listen; on a
 * signal, close the app, then the runtime. `props serve` calls `serve()`.
 */
import type { Tier } from '@propsfeed/contract';
import { TIERS } from '@propsfeed/contract';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { appOptionsOf, createApp } from './app';
import { type Config, ConfigError, loadConfig } from './config';
import { type CreatedKeyResult, issueKey } from './keys/issue';
import { logFormatOf, textDestination } from './log/format';
import { createLogger } from './log/logger';
import { terminalOut } from './log/terminal';
import { LOOPBACK_HOSTS } from './net/hostGuard';
import { openRuntime, type Runtime } from './runtime';
import { addressesOf, boardLine, startingLine } from './startup/banner';
import { jsonReport, textReport } from './startup/report';
import type { WebhookClock } from './webhooks/clock';

export { boardLine } from './startup/banner';

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

/**
 * Listens; Fastify's own "Server listening at" line is held back (the banner, or its JSON
 * line, says where instead, with the docs and the board).
 */
async function listenQuietly(app: FastifyInstance, log: Logger, port: number, host: string): Promise<string> {
  const level = log.level;
  if (log.isLevelEnabled('info')) log.level = 'warn';
  try {
    return await app.listen({ port, host });
  } finally {
    log.level = level;
  }
}

export async function serve(opts: ServeOptions = {}, config: Config = loadConfig()): Promise<void> {
  // On a terminal a banner and log lines as text; elsewhere (or PROPS_LOG_FORMAT=json) JSON lines only.
  const terminal = process.stdout.isTTY === true;
  const text = logFormatOf(config.PROPS_LOG_FORMAT, terminal) === 'text';
  const out = text ? terminalOut(process.stdout, terminal) : undefined;
  const logger = createLogger({ level: config.PROPS_LOG_LEVEL, ...(out ? { stream: textDestination(out) } : {}) });
  const report = out ? textReport(out) : jsonReport(createLogger({ level: 'info' }));
  const port = opts.port ?? config.PROPS_PORT;
  report.starting(startingLine(config, port));
  const runtime = await openRuntime(config, {
    logger,
    onBackfill: (progress) => report.backfill(progress),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.webhookClock ? { webhookClock: opts.webhookClock } : {}),
  });
  // The app's own child, so that holding back Fastify's listening line leaves the feed's logs alone.
  const appLog = logger.child({});
  let app: FastifyInstance | undefined;
  let address: string;
  try {
    app = await createApp(runtime, { ...appOptionsOf(config), logger: appLog });
    address = await listenQuietly(app, appLog, port, config.PROPS_HOST);
  } catch (err) {
    out?.clearStatus();
    await app?.close();
    await runtime.close();
    throw listenError(err, config.PROPS_HOST, port);
  }
  const demoKeys = await createDemoKeys(runtime);
  report.ready({
    // The board page's line appears once the app serves a page at `/`.
    at: addressesOf(address, app.hasRoute({ method: 'GET', url: '/' })),
    boardLine: boardLine(runtime.feed.current(), config),
    demoKeys,
    cli: opts.cli ?? 'props',
    env: process.env,
  });
  if (
    !LOOPBACK_HOSTS.includes(config.PROPS_HOST.replace(/^([^[].*:.*)$/, '[$1]')) &&
    config.PROPS_ALLOWED_HOSTS.length === 0
  ) {
    app.log.warn(
      `listening beyond loopback (PROPS_HOST=${config.PROPS_HOST}): /mcp answers only requests addressed to localhost, ` +
        '127.0.0.1 or [::1] until PROPS_ALLOWED_HOSTS names the host its clients use',
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    report.stopping(signal);
    // The app ends the open streams and drains in-flight requests; then the runtime stops its
    // services (webhooks, the hub, the feed), flushes usage and closes the store.
    await app.close();
    await runtime.close();
    report.stopped();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
