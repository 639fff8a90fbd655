/** Configuration, parsed once at start-up; a bad value stops start-up naming the variable. */

import { BOOKS } from '@propsfeed/contract';
import { z } from 'zod';
import { parseCorsOrigins, parseOriginList } from './cors';
import { parseAllowedHosts } from './net/hostGuard';
import { parseTrustProxy } from './net/trustProxy';

const port = z.coerce.number().int().min(0).max(65535);

/**
 * A variable read by a parser that answers what it read or `{ error }`, the sentence start-up
 * stops with (the variable's name is added by loadConfig).
 */
function parsedBy<V, R extends object, T>(parse: (value: V) => R | { error: string }, pick: (parsed: R) => T) {
  return (value: V, ctx: z.RefinementCtx): T => {
    const parsed = parse(value);
    if ('error' in parsed) {
      ctx.addIssue({ code: 'custom', message: String(parsed.error) });
      return z.NEVER;
    }
    return pick(parsed as R);
  };
}
/** An on/off setting: 1, true, yes or on; 0, false, no or off. */
const flag = z
  .string()
  .default('0')
  .transform((v, ctx) => {
    const value = v.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    ctx.addIssue({ code: 'custom', message: 'must be 1 or 0 (true or false)' });
    return z.NEVER;
  });

const SIM_CLOCK_FORMAT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?Z$/;

/**
 * An instant in the form `2026-11-27T01:30:00Z` (seconds and milliseconds optional, UTC):
 * its epoch ms, or undefined when it is not one (a day or hour out of range included, which
 * Date.parse would roll over).
 */
export function parseSimClock(value: string): number | undefined {
  const m = SIM_CLOCK_FORMAT.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((x) => Number(x ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 2000 || year > 2099) return undefined;
  const at = Date.UTC(year, month - 1, day, hour, minute, second, Number((m[7] ?? '0').padEnd(3, '0')));
  const back = new Date(at);
  const same =
    back.getUTCMonth() === month - 1 &&
    back.getUTCDate() === day &&
    back.getUTCHours() === hour &&
    back.getUTCMinutes() === minute &&
    back.getUTCSeconds() === second;
  return same ? at : undefined;
}

export const ConfigSchema = z
  .object({
    PROPS_PORT: port.default(8787),
    PROPS_HOST: z.string().min(1).default('127.0.0.1'),
    PROPS_DATA_DIR: z.string().min(1).default('./.propsfeed'),
    PROPS_BOOKS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (!v) return [];
        const books = v.split(',').map((b) => b.trim());
        for (const b of books) {
          if (!(BOOKS as readonly string[]).includes(b)) {
            ctx.addIssue({ code: 'custom', message: `unknown book '${b}' (known: ${BOOKS.join(', ')})` });
          }
        }
        return books as (typeof BOOKS)[number][];
      }),
    PROPS_PRIZEPICKS_URL: z.string().url().default('https://api.prizepicks.com'),
    PROPS_UNDERDOG_URL: z.string().url().default('https://api.underdogfantasy.com'),
    PROPS_SIM_SEED: z.coerce.number().int().default(20261122),
    /** The simulated world's clock at start (ms), run on from there in real time; absent: the machine's clock. */
    PROPS_SIM_CLOCK: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return undefined;
        const at = parseSimClock(v);
        if (at === undefined) {
          ctx.addIssue({
            code: 'custom',
            message: 'must be an ISO 8601 UTC instant between 2000 and 2099, such as 2026-11-27T01:30:00Z',
          });
          return z.NEVER;
        }
        return at;
      }),
    PROPS_DATABASE_URL: z.string().url().optional(),
    PROPS_REDIS_URL: z.string().url().optional(),
    PROPS_REDIS_PREFIX: z.string().min(1).max(64).default('propsfeed:'),
    PROPS_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** A JSON file of pick'em payout tables replacing the catalog's (odds/tables.ts). */
    PROPS_ENTRIES_FILE: z.string().min(1).optional(),
    /** The same tables as JSON in the variable itself. */
    PROPS_ENTRIES: z.string().min(1).optional(),
    /** New free keys (POST /api/v1/keys) per minute and per UTC day, from all addresses together. */
    PROPS_SIGNUP_PER_MINUTE: z.coerce.number().int().min(0).default(60),
    PROPS_SIGNUP_PER_DAY: z.coerce.number().int().min(0).default(2_000),
    /**
     * Which proxies' X-Forwarded-For to believe: unset (none; the socket's address is the
     * client's), a hop count, or a comma-separated list of proxy addresses and CIDRs.
     */
    PROPS_TRUST_PROXY: z
      .string()
      .optional()
      .transform(
        parsedBy(
          (v?: string) => parseTrustProxy(v ?? ''),
          (p) => p.trust,
        ),
      ),
    /** Open client connections at most; default the open-file limit less a reserve (net/connections.ts). */
    PROPS_MAX_CONNECTIONS: z.coerce.number().int().min(1).optional(),
    /** Open connections from one address at most (trusted proxies excepted). */
    PROPS_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(256),
    /** Hours of stream events kept in the store for resuming past the in-memory window; 0 keeps none. */
    PROPS_STREAM_LOG_HOURS: z.coerce.number().min(0).max(168).default(2),
    /**
     * Days a game's line history is kept after it ended (was first seen final); a game not
     * final is never pruned. 0: pruned within a minute of the end.
     */
    PROPS_HISTORY_DAYS: z.coerce.number().min(0).max(3650).default(1),
    /** Most stream events kept in the store, whatever their age (the busiest hours hold fewer hours). */
    PROPS_STREAM_LOG_MAX_EVENTS: z.coerce.number().int().min(1).default(2_000_000),
    /** Webhooks may target http:// and loopback addresses (development, tests); else https:// to public addresses only. */
    PROPS_WEBHOOK_ALLOW_HTTP: flag,
    /** Webhooks may target private and link-local addresses (receivers inside the operator's network); metadata never. */
    PROPS_WEBHOOK_ALLOW_PRIVATE: flag,
    PROPS_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** `props serve`'s output: text on a terminal and JSON lines otherwise (auto), or always one of them. */
    PROPS_LOG_FORMAT: z.enum(['auto', 'text', 'json']).default('auto'),
    /** Origins a browser page may call from: `*` (any; keys are bearer tokens, never cookies) or a list. */
    PROPS_CORS_ORIGINS: z
      .string()
      .default('*')
      .transform(parsedBy(parseCorsOrigins, (p) => p.origins)),
    /** Host names /mcp answers besides loopback (the DNS-rebinding guard): a server reached by name needs its name here. */
    PROPS_ALLOWED_HOSTS: z
      .string()
      .default('')
      .transform(parsedBy(parseAllowedHosts, (p) => p.hosts)),
    /** Origins of web pages /mcp answers besides those of loopback and the allowed hosts. */
    PROPS_ALLOWED_ORIGINS: z
      .string()
      .default('')
      .transform(
        parsedBy(
          (v: string) => (v.trim() === '' ? { origins: [] } : parseOriginList(v)),
          (p) => p.origins,
        ),
      ),
  })
  .superRefine((config, ctx) => {
    // The clock moves the simulated world only: the real books' lines are now's.
    if (config.PROPS_SIM_CLOCK !== undefined && config.PROPS_BOOKS.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['PROPS_SIM_CLOCK'],
        message:
          "sets the simulated books' clock; unset it, or PROPS_BOOKS (the real books run on the machine's clock)",
      });
    }
    // Each replica would start its own clock at its own start: one world, several times.
    if (config.PROPS_SIM_CLOCK !== undefined && config.PROPS_REDIS_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PROPS_SIM_CLOCK'],
        message: "is for one server (a demo, a benchmark); replicas behind PROPS_REDIS_URL run on the machine's clock",
      });
    }
    // Replicas behind Redis share keys, usage and history: one PostgreSQL store, not one SQLite file each.
    if (config.PROPS_REDIS_URL && !config.PROPS_DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PROPS_REDIS_URL'],
        message: 'needs PROPS_DATABASE_URL too (replicas must share one PostgreSQL store)',
      });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError whose message names each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([k, v]) => k.startsWith('PROPS_') && v !== ''));
  const parsed = ConfigSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map(
    (i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(present[String(i.path[0])])})`,
  );
  throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
}
