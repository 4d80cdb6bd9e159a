import type { FastifyRequest } from 'fastify';

/** The request's path, without the query string, lower-cased (startService's routing ignores case). */
export function pathOf(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  return (q < 0 ? req.url : req.url.slice(0, q)).toLowerCase();
}

/** Operators' health probes and metrics scrapes: never rate-limited, never in the access log. */
export function isProbe(req: FastifyRequest): boolean {
  const path = pathOf(req);
  return path.startsWith('/health/') || path === '/metrics';
}
