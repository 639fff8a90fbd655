/**
 * What a request no route serves is answered with: 405 with `Allow` when the path is served for
 * other methods, else 404. The methods come from the app's own router, so they never drift.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { echo } from './answer';

/**
 * The methods a route serves `path` for, in the order Fastify lists them; empty for an unknown
 * path. OPTIONS answers every path (the CORS preflight, cors.ts), so it is listed only beside
 * another method.
 */
export function allowedMethods(request: FastifyRequest, path: string): string[] {
  const app = request.server;
  const methods = app.supportedMethods.filter(
    (method) => method !== 'OPTIONS' && app.findRoute({ method, url: path }) !== null,
  );
  return methods.length > 0 ? [...methods, 'OPTIONS'] : [];
}

export function answerNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?', 1)[0] ?? '';
  const allowed = allowedMethods(request, path);
  // A route of this method matched but found nothing under it (an unknown docs asset): not found.
  if (allowed.length === 0 || allowed.includes(request.method)) {
    return reply.status(404).send({ error: 'not_found', message: `no route ${request.method} ${echo(request.url)}` });
  }
  return reply
    .status(405)
    .header('allow', allowed.join(', '))
    .send({
      error: 'method_not_allowed',
      message: `${request.method} is not allowed on ${echo(path)}: it serves ${allowed.join(', ')}`,
    });
}
