/**
 * Request bodies are JSON only. Fastify's own parser reads them (secure-json-parse, which refuses
 * a `__proto__` key and a `constructor` holding `prototype`), but it reports such a body as "not
 * valid JSON", which it is: this parser says which rule the body broke instead. Fastify's
 * text/plain parser goes, so a body of any other type is refused with a 415. An empty body on a
 * method that takes none (GET, HEAD, DELETE, OPTIONS) is no body, whatever its Content-Type says:
 * many clients send `Content-Type: application/json` on every call.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { BODY_MEDIA_TYPE } from '../errors/answer';
import { ApiError } from '../errors/apiError';

/** Methods whose requests carry no body: an empty one with a JSON Content-Type is no error. */
const BODILESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

type Done = (err: Error | null, body?: unknown) => void;
type JsonParser = (request: FastifyRequest, body: string, done: Done) => void;

/** Why secure-json-parse refused a body that JSON.parse reads, or undefined when JSON.parse does not. */
function forbiddenKey(body: string, request: FastifyRequest, prototypeRule: JsonParser): string | undefined {
  try {
    JSON.parse(body);
  } catch {
    return undefined;
  }
  let protoRefused = false;
  prototypeRule(request, body, (err) => {
    protoRefused = err !== null;
  });
  return protoRefused
    ? 'the key `__proto__` is not allowed in a request body'
    : 'a `constructor` object with a `prototype` key is not allowed in a request body';
}

export function registerJsonBodies(app: FastifyInstance): void {
  const strict = app.getDefaultJsonParser('error', 'error') as JsonParser;
  // Refuses `__proto__` only: run on a refused body, it tells the two rules apart.
  const prototypeRule = app.getDefaultJsonParser('error', 'ignore') as JsonParser;
  app.removeContentTypeParser(['text/plain', BODY_MEDIA_TYPE]);
  app.addContentTypeParser(BODY_MEDIA_TYPE, { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && BODILESS_METHODS.has(request.method)) return done(null, undefined);
    strict(request, body as string, (err, value) => {
      if (err === null) return done(null, value);
      const refusal =
        (err as FastifyError).code === 'FST_ERR_CTP_INVALID_JSON_BODY'
          ? forbiddenKey(body as string, request, prototypeRule)
          : undefined;
      done(refusal === undefined ? err : new ApiError('invalid_request', refusal));
    });
  });
}
