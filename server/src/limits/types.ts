/**
 * The limiter: per-key sliding-window rate limit and per-UTC-day quota. Two implementations
 * side by side: in-process (embedded default) and Redis (shared across replicas).
 */

/** A key's numbers, from the tier policy (or the key itself, for enterprise). */
export interface LimitPolicy {
  perMinute: number;
  perDay: number;
}

/** A key and the numbers it is checked against. */
export interface LimitRequest {
  keyId: string;
  policy: LimitPolicy;
}

export interface WindowState {
  limit: number;
  remaining: number;
  /** Epoch ms when the window frees capacity again (minute) or the UTC day ends (day). */
  resetAt: number;
}

export interface LimitDecision {
  allowed: boolean;
  /** Why a request was refused; absent when allowed. */
  reason?: 'rate_limited' | 'daily_quota_exceeded';
  minute: WindowState;
  day: WindowState & { used: number };
  /** Seconds to wait before retrying; set when refused. */
  retryAfterSeconds?: number;
}

export interface Limiter {
  /**
   * Checks both windows and, only when both allow it, counts the request, atomically:
   * N concurrent calls on a key with M left admit exactly M. Refused requests are not counted.
   */
  consume(keyId: string, policy: LimitPolicy, nowMs?: number): Promise<LimitDecision>;
  /**
   * One request against several keys at once (a sign-up against its network's ceiling and
   * the global one): each decision says whether its key's windows have room, and the request
   * is counted on every key only when all of them do, atomically, so a request refused by
   * one key spends nothing on the others.
   */
  consumeAll(requests: readonly LimitRequest[], nowMs?: number): Promise<LimitDecision[]>;
  /** Requests counted for the key in the current UTC day. */
  usedToday(keyId: string, nowMs?: number): Promise<number>;
  /**
   * The day's count as of the latest request this process counted (or refused) for the key,
   * that request included, without asking the engine; undefined when there is none today.
   * Lets a keyed route report usage from the guard's own check-and-count, one round trip.
   */
  countedToday?(keyId: string, nowMs?: number): number | undefined;
  /** Writes counted usage to the durable store (called periodically and on shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Thrown by `consume` and `usedToday` when the limiter's engine (Redis) cannot be reached:
 * keyed routes answer 503 `upstream_unavailable` (fail closed) until it is back.
 */
export class LimiterUnavailableError extends Error {
  override name = 'LimiterUnavailableError';
}

/** Milliseconds since epoch of the start of the UTC day containing `nowMs`. */
export function utcDayStart(nowMs: number): number {
  return nowMs - (nowMs % 86_400_000);
}

let lastDay = { start: Number.NaN, text: '' };

/** The UTC day as `YYYY-MM-DD`, the key of durable usage rows (formatted once per day). */
export function utcDay(nowMs: number): string {
  const start = utcDayStart(nowMs);
  if (start !== lastDay.start) lastDay = { start, text: new Date(start).toISOString().slice(0, 10) };
  return lastDay.text;
}
