/** The one error type of the query layer and the HTTP edge: a contract code, a message, a status. */
import { type ErrorCode, type PropsApiErrorShape, statusOfError, type Tier } from '@propsfeed/contract';

export class ApiError extends Error implements PropsApiErrorShape {
  readonly status: number;
  requiredTier?: Tier;
  retryAfter?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    extra: { requiredTier?: Tier; retryAfter?: number } = {},
  ) {
    super(message);
    this.status = statusOfError(code);
    if (extra.requiredTier) this.requiredTier = extra.requiredTier;
    if (extra.retryAfter !== undefined) this.retryAfter = extra.retryAfter;
  }

  /** The `{error, message}` envelope (plus requiredTier on a 403). */
  toBody(): { error: ErrorCode; message: string; requiredTier?: Tier } {
    return this.requiredTier
      ? { error: this.code, message: this.message, requiredTier: this.requiredTier }
      : { error: this.code, message: this.message };
  }
}
