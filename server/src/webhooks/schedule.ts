/**
 * What happens after an attempt: one pure function of its answer, the attempts made and the
 * clock. A 2xx succeeds; a 410 Gone fails the delivery and disables the endpoint; anything
 * else (another status, a timeout, a refused connection) is retried on the Standard Webhooks
 * schedule with ±20% jitter, never sooner than the answer's Retry-After, until the schedule
 * is spent.
 */
import { WEBHOOK_RETRY_SCHEDULE_SECONDS } from '@propsfeed/contract';

/** How far each retry's wait may stray from the schedule, either way. */
export const JITTER = 0.2;
/** A Retry-After longer than the schedule's longest wait is held to it. */
const MAX_RETRY_AFTER_SECONDS = 86_400;

export interface AttemptAnswer {
  /** The HTTP status; null when there was no answer (timeout, connection refused, refused target). */
  status: number | null;
  /** Seconds from the Retry-After header, when it had one. */
  retryAfterSeconds?: number | undefined;
}

export type Verdict = { kind: 'succeeded' } | { kind: 'gone' } | { kind: 'retry'; atMs: number } | { kind: 'failed' };

/**
 * `attempts`: attempts made, this one included. `random` is in [0, 1): 0.5 gives the
 * schedule's wait exactly.
 */
export function verdictOf(answer: AttemptAnswer, attempts: number, nowMs: number, random: number): Verdict {
  if (answer.status !== null && answer.status >= 200 && answer.status < 300) return { kind: 'succeeded' };
  if (answer.status === 410) return { kind: 'gone' };
  const wait = WEBHOOK_RETRY_SCHEDULE_SECONDS[attempts];
  if (wait === undefined) return { kind: 'failed' };
  const jittered = wait * (1 + JITTER * (2 * random - 1));
  const retryAfter = Math.min(answer.retryAfterSeconds ?? 0, MAX_RETRY_AFTER_SECONDS);
  return { kind: 'retry', atMs: nowMs + Math.round(1000 * Math.max(jittered, retryAfter)) };
}

/** Seconds from a Retry-After header: delay-seconds or an HTTP date; undefined when absent or malformed. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}
