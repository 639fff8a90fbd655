/** Every failure as a sentence for a person and a fixed exit code (0 ok, 1 error, 2 usage, 4 auth). */
import { SPORTS, TIERS } from '@propsfeed/contract';
import {
  AuthenticationError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  PropsFeedError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '@propsfeed/sdk';
import { BaseUrlError, ConfigFileError, type Connection } from './config';
import { formatDuration } from './output/format';

export const EXIT = { ok: 0, error: 1, usage: 2, auth: 4 } as const;

/** A failure the CLI itself detects; the message is already written for a person. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.error,
  ) {
    super(message);
  }
}

/** What the command was doing, so a refusal can say what was refused. */
export interface ErrorHint {
  /** The route in words, lower case, e.g. "line history"; used when the tier lacks the route. */
  feature?: string;
  sport?: string;
  /** Said after a 404, e.g. "Run `props games` to list today's games." */
  notFound?: string;
  /** Said after a name that matches several players, e.g. "Narrow it with --sport." */
  ambiguous?: string;
  /** Where the key came from; 'login' is the key just given to `props login`. */
  keySource?: Connection['keySource'] | 'login';
}

export interface Described {
  message: string;
  exitCode: number;
}

const KEY_SOURCE = {
  flag: 'the --api-key flag',
  env: 'PROPS_API_KEY',
  config: 'the config file written by `props login`',
  login: 'what was given to `props login`',
  none: 'nowhere',
} as const;

/**
 * What fixes a refused key from where it came, as a clause: `props login` cannot fix a key that
 * PROPS_API_KEY or --api-key overrides, so those say the variable or the flag.
 */
export function rejectedKeyFix(source: NonNullable<ErrorHint['keySource']>): string {
  if (source === 'env') {
    return 'PROPS_API_KEY wins over the key `props login` stores: set it to a valid key, or `unset PROPS_API_KEY` (then `props login` if no key is stored)';
  }
  if (source === 'flag') return 'pass a valid key to --api-key, or drop the flag to use the key `props login` stored';
  if (source === 'login') return 'check the key and run `props login` again';
  return 'run `props login` to store a valid key';
}

/** The address tried, without its query string (which only repeats the command's options). */
function withoutQuery(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
}

function sportName(id: string | undefined): string | undefined {
  return SPORTS.find((s) => s.id === id)?.name;
}

function describePermission(err: PermissionError, hint: ErrorHint): string {
  const what =
    err.code === 'live_not_in_tier'
      ? 'live in-game lines are'
      : err.code === 'sport_not_in_tier' && sportName(hint.sport)
        ? `${sportName(hint.sport)} is`
        : err.code === 'route_not_in_tier' && hint.feature
          ? `${hint.feature} is`
          : undefined;
  // The API names the caller's tier ("… not included in the free tier"); say it too.
  const tier = /\bin the ([a-z]+) tier\b/.exec(err.message)?.[1];
  const yours = tier && (TIERS as readonly string[]).includes(tier) ? `the ${tier} tier` : 'your tier';
  const lack = what ? `${what} not included in ${yours}.` : `${err.message.replace(/\.$/, '')}.`;
  const pronoun = err.code === 'live_not_in_tier' ? 'They are' : 'It is';
  const upgrade = err.requiredTier ? ` ${pronoun} available on the ${err.requiredTier} tier and above.` : '';
  return `${lack}${upgrade} Run \`props me\` to see what your key includes.`;
}

function describeRateLimit(err: RateLimitError): string {
  const wait = err.retryAfter === undefined ? 'shortly' : `in ${formatDuration(Math.max(1, err.retryAfter) * 1000)}`;
  if (err.code === 'daily_quota_exceeded') {
    return `Today's request quota is used up. It resets at midnight UTC: try again ${wait}.`;
  }
  return `Rate limit reached. Try again ${wait}.`;
}

/** A word for a POSIX shell: single-quoted, a quote inside written as '\''. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** An ambiguous slip leg: the API's sentence, then each leg it could mean on a line of its own, ready to paste. */
function describeChoices(err: InvalidRequestError, choices: string[]): Described {
  const listed = `: ${choices.join('; ')}`;
  const head = err.message.endsWith(listed) ? err.message.slice(0, -listed.length) : err.message;
  const lines = choices.map((c) => `  ${shellQuote(c)}`).join('\n');
  return { message: `The API refused the request: ${head.replace(/\.$/, '')}:\n${lines}`, exitCode: EXIT.usage };
}

export function describeError(err: unknown, hint: ErrorHint = {}): Described {
  if (err instanceof CliError) return { message: err.message, exitCode: err.exitCode };
  if (err instanceof ConfigFileError) return { message: err.message, exitCode: EXIT.error };
  if (err instanceof BaseUrlError) return { message: err.message, exitCode: EXIT.usage };
  if (err instanceof AuthenticationError) {
    if (err.code === 'missing_api_key' || hint.keySource === 'none') {
      return {
        message: 'No API key. Run `props login`, pass --api-key, or set PROPS_API_KEY.',
        exitCode: EXIT.auth,
      };
    }
    const source = hint.keySource ?? 'config';
    const from = hint.keySource ? ` (it came from ${KEY_SOURCE[hint.keySource]})` : '';
    const fix = rejectedKeyFix(source);
    return {
      message: `Your API key was rejected${from}. ${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`,
      exitCode: EXIT.auth,
    };
  }
  if (err instanceof PermissionError) return { message: describePermission(err, hint), exitCode: EXIT.error };
  if (err instanceof RateLimitError) return { message: describeRateLimit(err), exitCode: EXIT.error };
  if (err instanceof NotFoundError) {
    const sentence = `${err.message.charAt(0).toUpperCase()}${err.message.slice(1).replace(/\.$/, '')}.`;
    return { message: hint.notFound ? `${sentence} ${hint.notFound}` : sentence, exitCode: EXIT.error };
  }
  if (err instanceof InvalidRequestError && err.choices?.length) return describeChoices(err, err.choices);
  if (err instanceof InvalidRequestError) {
    const candidates = err.candidates ?? [];
    // The API's message may already name the candidates; say them once.
    const listed =
      candidates.length && !err.message.includes(candidates[0] ?? '') ? ` Did you mean: ${candidates.join(', ')}?` : '';
    const narrow = candidates.length && hint.ambiguous ? ` ${hint.ambiguous}` : '';
    const message = `The API refused the request: ${err.message.replace(/\.$/, '')}.${listed}${narrow}`;
    return { message, exitCode: EXIT.usage };
  }
  if (err instanceof TimeoutError) {
    return { message: `No answer from ${err.url} in time. Is the server overloaded? Try again.`, exitCode: EXIT.error };
  }
  if (err instanceof ConnectionError) {
    return {
      message:
        `Could not reach the propsfeed API at ${withoutQuery(err.url)} (${err.message.split(': ').pop()}). ` +
        'Is the server running (`props serve`)? Point --base-url or PROPS_BASE_URL at it.',
      exitCode: EXIT.error,
    };
  }
  if (err instanceof ServerError) {
    return {
      message: `The propsfeed API failed (${err.status} ${err.code}): ${err.message}. Try again in a moment.`,
      exitCode: EXIT.error,
    };
  }
  if (err instanceof PropsFeedError) {
    return { message: `The API answered ${err.status} ${err.code}: ${err.message}`, exitCode: EXIT.error };
  }
  return { message: `Unexpected error: ${err instanceof Error ? err.message : String(err)}`, exitCode: EXIT.error };
}
