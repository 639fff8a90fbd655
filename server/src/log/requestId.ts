/** The request id of each answer (see the contract's REQUEST_ID_HEADER): taken or made, then echoed and logged. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isWellFormedRequestId, REQUEST_ID_HEADER } from '@propsfeed/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Fastify's `genReqId`: the client's id when well-formed, a random UUID otherwise (ids stay unique across replicas). */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && isWellFormedRequestId(given) ? given : randomUUID();
}

/** Every answer names its request id, errors included: called from the app's onRequest hook. */
export function echoRequestId(request: FastifyRequest, reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, request.id);
}
