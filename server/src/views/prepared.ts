/**
 * A prepared answer: the JSON serialized once, its ETag, and its gzip/br encodings made on
 * first demand and kept. Routes send these bytes as they are.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Bodies smaller than this are sent plain: compressing them costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024;

export type ContentEncoding = 'br' | 'gzip' | 'identity';

export class Prepared<T = unknown> {
  readonly etag: string;
  private gz: Promise<Buffer> | undefined;
  private brotli: Promise<Buffer> | undefined;
  private gzDone: Buffer | undefined;
  private brotliDone: Buffer | undefined;
  private made: { value: T } | undefined;

  constructor(
    /** The answer as an object, or how to make it when an in-process caller (MCP) first asks. */
    private readonly answer: T | (() => T),
    readonly body: Buffer,
  ) {
    this.etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
  }

  /** The answer as an object, for in-process callers (MCP tools). */
  get value(): T {
    if (typeof this.answer !== 'function') return this.answer;
    this.made ??= { value: (this.answer as () => T)() };
    return this.made.value;
  }

  static of<T>(value: T): Prepared<T> {
    return new Prepared(value, Buffer.from(JSON.stringify(value)));
  }

  get compressible(): boolean {
    return this.body.length >= COMPRESS_MIN_BYTES;
  }

  /**
   * The body in `encoding`, compressed once and then served from memory: a promise only
   * while the first compression runs, the bytes themselves after (no await per request).
   */
  encoded(encoding: ContentEncoding): Buffer | Promise<Buffer> {
    if (encoding === 'gzip') {
      if (this.gzDone) return this.gzDone;
      this.gz ??= gzipAsync(this.body, { level: 6 }).then((bytes) => {
        this.gzDone = bytes;
        return bytes;
      });
      return this.gz;
    }
    if (encoding === 'br') {
      if (this.brotliDone) return this.brotliDone;
      // Quality 5: most of brotli's gain at a small part of the default quality's cost.
      this.brotli ??= brotliAsync(this.body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: this.body.length },
      }).then((bytes) => {
        this.brotliDone = bytes;
        return bytes;
      });
      return this.brotli;
    }
    return this.body;
  }
}

/** A Map that forgets its oldest entries beyond `max`: for caches keyed by request input. */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.max) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}

/**
 * Answers kept per board (or board view) object, by request key: gone with the board, and at
 * most `max` per board. `getOrBuild` builds each answer once.
 */
export class AnswersPer<O extends object, V> {
  private readonly byOwner = new WeakMap<O, BoundedMap<string, V>>();

  constructor(private readonly max: number) {}

  of(owner: O): BoundedMap<string, V> {
    let answers = this.byOwner.get(owner);
    if (!answers) {
      answers = new BoundedMap(this.max);
      this.byOwner.set(owner, answers);
    }
    return answers;
  }

  getOrBuild(owner: O, key: string, build: () => V): V {
    const answers = this.of(owner);
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = build();
      answers.set(key, answer);
    }
    return answer;
  }
}

/**
 * Answers read from the store, kept by request key for `maxAgeMs` (at most `max` of them):
 * what changes only when a game settles need not be read again for every request. A failed
 * read is not kept. `RecentAnswers.per(owner)` keeps one set per store reader.
 */
export class RecentAnswers<V> {
  /** One set of answers per owner (a store reader), made on first use. */
  static per<O extends object, V>(maxAgeMs: number, max: number): (owner: O) => RecentAnswers<V> {
    const byOwner = new WeakMap<O, RecentAnswers<V>>();
    return (owner) => {
      let answers = byOwner.get(owner);
      if (!answers) {
        answers = new RecentAnswers<V>(maxAgeMs, max);
        byOwner.set(owner, answers);
      }
      return answers;
    };
  }

  private readonly answers: BoundedMap<string, { at: number; value: Promise<V> }>;

  constructor(
    private readonly maxAgeMs: number,
    max: number,
  ) {
    this.answers = new BoundedMap(max);
  }

  getOrRead(key: string, nowMs: number, read: () => Promise<V>): Promise<V> {
    const kept = this.answers.get(key);
    if (kept && nowMs - kept.at < this.maxAgeMs && nowMs >= kept.at) return kept.value;
    const value = read();
    this.answers.delete(key);
    this.answers.set(key, { at: nowMs, value });
    value.catch(() => {
      if (this.answers.get(key)?.value === value) this.answers.delete(key);
    });
    return value;
  }
}
