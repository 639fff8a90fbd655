/** Key format `pf_` + 32 base62 characters; only the SHA-256 hash is ever stored. */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^pf_[0-9A-Za-z]{32}$/;
export const KEY_PREFIX_LENGTH = 8;

export function generateKey(): string {
  let body = '';
  for (let i = 0; i < 32; i++) body += BASE62[randomInt(62)];
  return `pf_${body}`;
}

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Hex SHA-256 of the key: what the store holds and what lookups use. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function keyPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}

/** Constant-time equality of two hex hashes. */
export function sameHash(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
