import { API_VERSION } from '@tailsync/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** `X-Api-Version` and `X-Request-Id` on every response, errors and unknown routes included. */
export function addResponseHeaders(http: FastifyInstance): void {
  http.addHook('onRequest', (req, reply, done) => {
    tagResponse(req, reply);
    done();
  });
}

/** The headers every response carries (also set on answers to requests refused before routing). */
export function tagResponse(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Api-Version', API_VERSION).header('X-Request-Id', req.id);
}
