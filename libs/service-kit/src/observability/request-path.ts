import type { FastifyRequest } from 'fastify';

/** The request's path, without the query string, lower-cased (startService's routing ignores case). */
export function pathOf(req: FastifyRequest): string {
  return pathOfUrl(req.url);
}

function pathOfUrl(url: string): string {
  const q = url.indexOf('?');
  return (q < 0 ? url : url.slice(0, q)).toLowerCase();
}

/** Operators' health probes and metrics scrapes: never rate-limited, never in the access log, never traced. */
export function isProbe(req: FastifyRequest): boolean {
  return isProbePath(req.url);
}

/** {@link isProbe} for a request URL (path and query). */
export function isProbePath(url: string): boolean {
  const path = pathOfUrl(url);
  return path.startsWith('/health/') || path === '/metrics';
}
