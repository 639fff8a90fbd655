/**
 * `props doctor`: which server and key `props` would use and where each came from, whether the
 * server answers, whether it accepts the key (and its tier), and the clock offset to the
 * server. One line per check, ok or fail, with what to do on a failure.
 */
import { isWellFormedRequestId } from '@propsfeed/contract';
import { AuthenticationError, type FetchLike, PropsFeed, PropsFeedError } from '@propsfeed/sdk';
import type { Command } from 'commander';
import { type Connection, configPath, resolveConnection } from '../config';
import type { CliApp, GlobalOptions } from '../context';
import { describeError, EXIT, rejectedKeyFix } from '../errors';
import { nodeFetch } from '../http';
import { formatDuration } from '../output/format';
import type { Output } from '../output/output';
import { printable } from '../output/printable';

/** Beyond this the delayed tiers' cut-off and the CLI's relative times are visibly off. */
const MAX_CLOCK_OFFSET_MS = 5_000;
const TIMEOUT_MS = 5_000;

interface Check {
  ok: boolean;
  name: string;
  detail: string;
}

function from(source: Connection['keySource'] | Connection['baseUrlSource'], env: NodeJS.ProcessEnv): string {
  if (source === 'flag') return 'the command line';
  if (source === 'config') return `${configPath(env)} (props login)`;
  if (source === 'default') return 'the default';
  return source === 'env' ? 'the environment' : 'nowhere';
}

/** The server's answer to /healthz and the clock offset its Date header shows (±0.5 s at best). */
async function checkServer(fetch: FetchLike, baseUrl: string, now: () => number): Promise<Check[]> {
  const sent = now();
  try {
    const res = await fetch(`${baseUrl}/healthz`, { method: 'GET', signal: AbortSignal.timeout(TIMEOUT_MS) });
    const received = now();
    await res.text();
    const answers: Check = {
      ok: res.ok,
      name: 'server answers',
      detail: res.ok
        ? `/healthz in ${Math.round(received - sent)} ms`
        : `/healthz answered ${res.status}: is ${baseUrl} a propsfeed server?`,
    };
    const date = Date.parse(res.headers.get('date') ?? '');
    if (Number.isNaN(date)) return [answers, { ok: false, name: 'clock', detail: 'the server sent no Date header' }];
    // The Date header has whole seconds: compare with the middle of the exchange, rounded alike.
    const offset = date - Math.floor((sent + received) / 2 / 1000) * 1000;
    const clock: Check = {
      ok: Math.abs(offset) <= MAX_CLOCK_OFFSET_MS,
      name: 'clock',
      detail:
        Math.abs(offset) <= 1000
          ? 'within a second of the server'
          : `${formatDuration(Math.abs(offset))} ${offset > 0 ? 'behind' : 'ahead of'} the server` +
            (Math.abs(offset) > MAX_CLOCK_OFFSET_MS ? ': set this machine to sync its clock (NTP)' : ''),
    };
    return [answers, clock];
  } catch (err) {
    const cause = (err as { cause?: { code?: unknown } }).cause?.code;
    const why = typeof cause === 'string' ? ` (${cause})` : '';
    return [
      {
        ok: false,
        name: 'server answers',
        detail: `no answer from ${baseUrl}${why}: start one with \`props serve\`, or point --base-url or PROPS_BASE_URL at yours`,
      },
    ];
  }
}

async function checkKey(fetch: FetchLike, connection: Connection, env: NodeJS.ProcessEnv): Promise<Check> {
  if (!connection.apiKey) {
    return { ok: false, name: 'key accepted', detail: 'no key to try: run `props login`, or set PROPS_API_KEY' };
  }
  const client = new PropsFeed({ apiKey: connection.apiKey, baseUrl: connection.baseUrl, fetch, maxRetries: 0 });
  try {
    const me = await client.me();
    const { usage, limits } = me;
    return {
      ok: true,
      name: 'key accepted',
      detail: `${String(me.tier).replace(/[^\w-]/g, '?')} tier, ${usage.today} of ${limits.requestsPerDay} requests used today`,
    };
  } catch (err) {
    const id =
      err instanceof PropsFeedError && err.requestId && isWellFormedRequestId(err.requestId) ? err.requestId : '';
    const detail =
      err instanceof AuthenticationError
        ? `the server refused the key from ${from(connection.keySource, env)}: ${rejectedKeyFix(connection.keySource)}`
        : describeError(err, { keySource: connection.keySource }).message;
    return { ok: false, name: 'key accepted', detail: id ? `${detail} (request id ${id})` : detail };
  }
}

function render(checks: Check[], out: Output): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  return checks
    .map((c) => {
      const mark = c.ok ? out.c.green('ok  ') : out.c.red('fail');
      return `${mark}  ${c.name.padEnd(width)}  ${printable(c.detail)}\n`;
    })
    .join('');
}

export function register(program: Command, app: CliApp): void {
  program
    .command('doctor')
    .description('check the server, key and clock props would use, and say how to fix what fails')
    .action(async (_opts, cmd: Command) => {
      const env = app.deps.env;
      const out = app.output();
      const connection = await resolveConnection(cmd.optsWithGlobals<GlobalOptions>(), env);
      const fetch = app.deps.fetch ?? nodeFetch;
      const now = () => (app.deps.now ?? (() => new Date()))().getTime();
      const key = connection.apiKey;
      const checks: Check[] = [
        { ok: true, name: 'server', detail: `${connection.baseUrl} (from ${from(connection.baseUrlSource, env)})` },
        {
          ok: key !== undefined,
          name: 'key',
          detail: key
            ? `${key.slice(0, 8)}… (from ${from(connection.keySource, env)})`
            : 'none: run `props login`, pass --api-key, or set PROPS_API_KEY',
        },
        ...(await checkServer(fetch, connection.baseUrl, now)),
      ];
      if (checks.every((c) => c.name !== 'server answers' || c.ok)) checks.push(await checkKey(fetch, connection, env));
      out.stdout.write(render(checks, out));
      if (checks.some((c) => !c.ok)) app.exitCode = EXIT.error;
    });
}
