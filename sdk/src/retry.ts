/**
 * The retry policy: one pure function, so every rule is tested on its own.
 * Retries connection failures, 429 and 5xx, for GETs only (a POST may have taken effect).
 */

export const DEFAULT_MAX_RETRIES = 2;
/** First backoff step; doubles per retry. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** Ceiling of a computed backoff step. */
export const MAX_RETRY_DELAY_MS = 8_000;
/** A `Retry-After` longer than this is not waited out: the error goes to the caller at once. */
export const DEFAULT_MAX_RETRY_AFTER_SECONDS = 60;

export type AttemptOutcome =
  /** The API answered with this status; `retryAfter` in seconds when it sent the header. */
  | { kind: 'response'; status: number; retryAfter?: number }
  /** No answer: refused, reset, or timed out. */
  | { kind: 'connection' };

export interface RetryInput {
  method: string;
  /** Retries already made for this request (0 after the first attempt fails). */
  retriesSoFar: number;
  maxRetries: number;
  outcome: AttemptOutcome;
  maxRetryAfterSeconds?: number;
  /** Source of jitter in [0, 1); injectable so tests are exact. */
  random?: () => number;
}

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Exponential backoff with jitter: a random wait between half and all of the step. */
export function backoffDelayMs(retriesSoFar: number, random: () => number = Math.random): number {
  const step = Math.min(MAX_RETRY_DELAY_MS, INITIAL_RETRY_DELAY_MS * 2 ** retriesSoFar);
  return Math.round(step * (0.5 + random() * 0.5));
}

/** Whether to try again after a failed attempt, and after how long. */
export function retryDecision(input: RetryInput): RetryDecision {
  const { outcome } = input;
  if (input.method.toUpperCase() !== 'GET') return { retry: false };
  if (input.retriesSoFar >= input.maxRetries) return { retry: false };
  if (outcome.kind === 'response' && !isRetryableStatus(outcome.status)) return { retry: false };
  if (outcome.kind === 'response' && outcome.retryAfter !== undefined) {
    const limit = input.maxRetryAfterSeconds ?? DEFAULT_MAX_RETRY_AFTER_SECONDS;
    if (outcome.retryAfter > limit) return { retry: false };
    return { retry: true, delayMs: outcome.retryAfter * 1000 };
  }
  return { retry: true, delayMs: backoffDelayMs(input.retriesSoFar, input.random) };
}
