import type { CallerContext } from '@tailsync/contracts';
import type { FastifyRequest } from 'fastify';

/** An operator acting on one domain through the admin API: the services see that domain's caller. */
export function adminCaller(domain: string, req: FastifyRequest): CallerContext {
  return { domain, source: 'admin', requestId: req.id };
}
