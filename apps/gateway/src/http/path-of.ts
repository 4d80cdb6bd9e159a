import type { FastifyRequest } from 'fastify';

/** The request's path, without the query string, lower-cased (routing ignores case). */
export function pathOf(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  return (q < 0 ? req.url : req.url.slice(0, q)).toLowerCase();
}
