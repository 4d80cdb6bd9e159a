import type { FastifyRequest } from 'fastify';
import { budgetedCaller } from '../../services/infrastructure/request-budget';
import type { BudgetedCaller } from '../../services/infrastructure/service-channel';

/** An operator acting on one domain (or `*`, all) through the admin API: the services see an operator's caller in that domain. */
export function adminCaller(domain: string, req: FastifyRequest): BudgetedCaller {
  return budgetedCaller(req, { domain, source: 'admin', role: 'operator', requestId: req.id });
}
