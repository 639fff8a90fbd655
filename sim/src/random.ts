/** Deterministic randomness: every draw is a pure function of the seed and a path of keys. */

function hashString(h: number, text: string): number {
  let x = h;
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), 0x01000193);
  return x >>> 0;
}

function mix(x: number): number {
  let z = (x + 0x6d2b79f5) >>> 0;
  z = Math.imul(z ^ (z >>> 15), z | 1);
  z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
  return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
}

/** A uniform number in [0, 1) for (seed, ...keys). */
export function draw(seed: number, ...keys: (string | number)[]): number {
  let h = hashString(0x811c9dc5 ^ seed, '');
  for (const k of keys) h = hashString(Math.imul(h, 31) >>> 0, typeof k === 'number' ? `#${k}` : k);
  return mix(h);
}

/** A small generator for a sequence of draws from one starting point. */
export function stream(seed: number, ...keys: (string | number)[]): () => number {
  return generator(draw(seed, ...keys));
}

/**
 * Where `stream(seed, ...keys, last)` stands after the first `prefix` of its last key: continue
 * it with `streamAfter`, which hashes the rest of the last key in parts, building no string
 * (the same draws as the whole key, for hot paths that key thousands of draws alike).
 */
export function keyPrefix(seed: number, keys: readonly string[], prefix: string): number {
  let h = hashString(0x811c9dc5 ^ seed, '');
  for (const k of keys) h = hashString(Math.imul(h, 31) >>> 0, k);
  return hashString(Math.imul(h, 31) >>> 0, prefix);
}

/** `stream(seed, ...keys, prefix + a + b + c)` from `keyPrefix(seed, keys, prefix)`. */
export function streamAfter(prefix: number, a: string, b: string, c: string): () => number {
  return generator(mix(hashString(hashString(hashString(prefix, a), b), c)));
}

function generator(start: number): () => number {
  let state = Math.floor(start * 4294967296) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    return mix(state);
  };
}

export function pick<T>(r: number, list: readonly T[]): T {
  return list[Math.min(list.length - 1, Math.floor(r * list.length))] as T;
}

/** Approximately normal (mean 0, sd 1) from a stream: six uniforms (variance 1/12 each), centred and scaled. */
export function gaussian(next: () => number): number {
  return (next() + next() + next() + next() + next() + next() - 3) * Math.SQRT2;
}

/** A standard normal draw (Box–Muller): exact in the tails, where `gaussian` is bounded. */
export function normal(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

/** A Gamma(shape, 1) draw (Marsaglia and Tsang; below shape 1, boosted by U^(1/shape)). */
export function gammaDraw(next: () => number, shape: number): number {
  if (shape < 1) return gammaDraw(next, shape + 1) * (1 - next()) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(next);
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    if (Math.log(1 - next()) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}
