/** Sending a prepared answer: its bytes in the best accepted encoding, ETag and 304. */
import type { IncomingHttpHeaders } from 'node:http';
import type { ContentEncoding, Prepared } from '../views';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The last Accept-Encoding read and its answer: a client sends the same one on every request. */
let lastAccept: { header: string; encoding: ContentEncoding } | undefined;

/** br when accepted, else gzip when accepted, else identity (q=0 refuses an encoding). */
export function pickEncoding(accept: string | string[] | undefined): ContentEncoding {
  if (accept === undefined) return 'identity';
  const header = Array.isArray(accept) ? accept.join(',') : accept;
  if (lastAccept?.header === header) return lastAccept.encoding;
  const encoding = parseAcceptEncoding(header);
  lastAccept = { header, encoding };
  return encoding;
}

function parseAcceptEncoding(header: string): ContentEncoding {
  let gzip = false;
  let br = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    if (name === 'br') br = true;
    else if (name === 'gzip' || name === '*') gzip = true;
  }
  return br ? 'br' : gzip ? 'gzip' : 'identity';
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * A ts-rest result whose body the contract types cannot express (bytes, sent as they are).
 * Typed as the 200 result; a 304 also travels in it (ts-rest sends 304 with no body).
 */
export type BytesResult = { status: 200; body: never };

/** The parts of Fastify's request and reply used here (ts-rest's types name Fastify 4's generics). */
interface RequestLike {
  headers: IncomingHttpHeaders;
}
interface ReplyLike {
  header(name: string, value: string): unknown;
}

export async function sendPrepared(request: RequestLike, reply: ReplyLike, prepared: Prepared): Promise<BytesResult> {
  reply.header('etag', prepared.etag);
  reply.header('vary', 'Accept-Encoding');
  reply.header('cache-control', 'private, no-cache');
  if (matchesEtag(request.headers['if-none-match'], prepared.etag)) {
    return { status: 304, body: undefined } as unknown as BytesResult;
  }
  reply.header('content-type', JSON_TYPE);
  const encoding = prepared.compressible ? pickEncoding(request.headers['accept-encoding']) : 'identity';
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  const bytes = prepared.encoded(encoding);
  return { status: 200, body: (bytes instanceof Buffer ? bytes : await bytes) as never };
}
