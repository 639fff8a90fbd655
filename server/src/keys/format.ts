/** Key format `pf_` + 32 base62 characters; only the SHA-256 hash is ever stored. */
import { hash, randomInt, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^pf_[0-9A-Za-z]{32}$/;
export const KEY_PREFIX_LENGTH = 8;

/** `length` random base62 characters (ids and keys). */
export function randomBase62(length: number): string {
  let body = '';
  for (let i = 0; i < length; i++) body += BASE62[randomInt(62)];
  return body;
}

export function generateKey(): string {
  return `pf_${randomBase62(32)}`;
}

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * SHA-256 of the key as a 32-character latin1 string: the fastest form Node gives (no
 * Buffer, no hex), used for in-memory lookups. The store holds the hex form.
 */
export function hashKey(key: string): string {
  return hash('sha256', key, 'binary');
}

/** Equality of two secrets (key hashes, the admin token) in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function hashKeyHex(key: string): string {
  return hash('sha256', key, 'hex');
}

export function keyPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}
