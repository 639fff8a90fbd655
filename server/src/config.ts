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
    /** Most stream events kept in the store, whatever their age (the busiest hours hold fewer hours). */
    PROPS_STREAM_LOG_MAX_EVENTS: z.coerce.number().int().min(1).default(2_000_000),
    PROPS_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
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
