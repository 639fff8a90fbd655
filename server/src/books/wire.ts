/** Small readers for untyped JSON: each returns undefined rather than throwing on a bad value. */

export type Obj = Record<string, unknown>;

export function obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

export function arr(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string' && v.length > 0) return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** A finite number, also from a numeric string ("4.5"): the books send both. */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** An image URL as a book gives it (trimmed: Underdog's have stray spaces), when it is an http(s) URL. */
export function imageUrl(v: unknown): string | undefined {
  const text = str(v)?.trim();
  if (!text || !/^https?:\/\//i.test(text)) return undefined;
  return URL.canParse(text) ? text : undefined;
}

export function timeMs(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The payload as a whole is unusable: the book's last good slate stays in place. */
export class PayloadError extends Error {}

/** A short stable id from text, for games a payload gives no id of their own. */
export function shortHash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619);
    h2 = Math.imul(h2 ^ c, 2246822507);
  }
  return (h1 >>> 0).toString(36) + (h2 >>> 0).toString(36);
}
