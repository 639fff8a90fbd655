/**
 * Stream tokens: what a browser's EventSource (which cannot send headers) passes instead of
 * the key, so the key never goes in a URL. Each is random, names the key it was issued to,
 * opens one stream (it is used up only when a stream opens with it: a refused open leaves it
 * usable) and is refused after STREAM_TOKEN_TTL_SECONDS. In memory on the embedded
 * engine; in Redis on the shared engines, so a token issued by one replica opens a stream on
 * any other.
 */
import { randomBytes } from 'node:crypto';
import { STREAM_TOKEN_TTL_SECONDS } from '@propsfeed/contract';
import type { Redis } from 'ioredis';
import { ApiError } from '../errors/apiError';

const unavailable = (): never => {
  throw new ApiError('upstream_unavailable', 'stream tokens are unavailable right now (Redis); retry shortly');
};

export interface StreamTokens {
  /** A new token for the key. */
  issue(keyId: string, nowMs: number): Promise<{ token: string; expiresAtMs: number }>;
  /** The key id the token was issued to while it is unused and unexpired, without using it. */
  peek(token: string, nowMs: number): Promise<string | undefined>;
  /** The key id the token was issued to, once: a second redemption, or a late one, gives undefined. */
  redeem(token: string, nowMs: number): Promise<string | undefined>;
}

const TTL_MS = STREAM_TOKEN_TTL_SECONDS * 1000;
/** Unused tokens one key may hold at once in memory; issuing more forgets its oldest. */
const MAX_PER_KEY = 20;

const newToken = () => `st_${randomBytes(24).toString('base64url')}`;

export class MemoryStreamTokens implements StreamTokens {
  private readonly tokens = new Map<string, { keyId: string; expiresAtMs: number }>();
  private readonly byKey = new Map<string, string[]>();

  async issue(keyId: string, nowMs: number) {
    this.sweep(nowMs);
    const token = newToken();
    const expiresAtMs = nowMs + TTL_MS;
    this.tokens.set(token, { keyId, expiresAtMs });
    const held = this.byKey.get(keyId) ?? [];
    held.push(token);
    while (held.length > MAX_PER_KEY) this.tokens.delete(held.shift() as string);
    this.byKey.set(keyId, held);
    return { token, expiresAtMs };
  }

  async peek(token: string, nowMs: number) {
    const entry = this.tokens.get(token);
    return entry && entry.expiresAtMs > nowMs ? entry.keyId : undefined;
  }

  async redeem(token: string, nowMs: number) {
    const entry = this.tokens.get(token);
    if (!entry) return undefined;
    this.forget(token, entry.keyId);
    return entry.expiresAtMs > nowMs ? entry.keyId : undefined;
  }

  private forget(token: string, keyId: string): void {
    this.tokens.delete(token);
    const held = this.byKey.get(keyId)?.filter((t) => t !== token) ?? [];
    if (held.length > 0) this.byKey.set(keyId, held);
    else this.byKey.delete(keyId);
  }

  /** Expired tokens go, so memory holds only the last TTL's tokens. */
  private sweep(nowMs: number): void {
    for (const [token, entry] of this.tokens) if (entry.expiresAtMs <= nowMs) this.forget(token, entry.keyId);
  }
}

export class RedisStreamTokens implements StreamTokens {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async issue(keyId: string, nowMs: number) {
    const token = newToken();
    await this.redis.set(`${this.prefix}stream:token:${token}`, keyId, 'PX', TTL_MS).catch(unavailable);
    return { token, expiresAtMs: nowMs + TTL_MS };
  }

  async peek(token: string) {
    return (await this.redis.get(`${this.prefix}stream:token:${token}`).catch(unavailable)) ?? undefined;
  }

  async redeem(token: string) {
    return (await this.redis.getdel(`${this.prefix}stream:token:${token}`).catch(unavailable)) ?? undefined;
  }
}
