import type { FastifyRequest } from 'fastify';
import { budgetedCaller } from '../../services/infrastructure/request-budget';
import type { BudgetedCaller } from '../../services/infrastructure/service-channel';

/** An operator acting on one domain through the admin API: the services see that domain's caller. */
export function adminCaller(domain: string, req: FastifyRequest): BudgetedCaller {
  return budgetedCaller(req, { domain, source: 'admin', requestId: req.id });
}
