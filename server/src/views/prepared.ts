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
