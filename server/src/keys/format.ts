/** Key format `pf_` + 32 base62 characters; only the SHA-256 hash is ever stored. */
import { hash, randomInt } from 'node:crypto';

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

/** SHA-256 of the key; its hex form is what the store holds. */
export function hashKey(key: string): Buffer {
  return hash('sha256', key, 'buffer') as unknown as Buffer;
}

export function hashKeyHex(key: string): string {
  return hash('sha256', key, 'hex');
}

export function keyPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}
