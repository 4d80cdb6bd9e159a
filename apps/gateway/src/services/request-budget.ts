import type { CallerContext } from '@tailsync/contracts';
import type { FastifyRequest } from 'fastify';
import type { BudgetedCaller } from './service-channel';

const BUDGET_ENDS = Symbol('budgetEnds');
type Budgeted = { [BUDGET_ENDS]?: number };

/** W3C trace context: version-traceid-parentid-flags, lowercase hex. */
const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;

/** Starts the request's budget as it arrives: every service call it makes must answer within it. */
export function startBudget(req: FastifyRequest, budgetMs: number): void {
  (req as Budgeted)[BUDGET_ENDS] = Date.now() + budgetMs;
}

/** The caller as its service calls carry it: the request's deadline and its trace context. */
export function budgetedCaller(req: FastifyRequest, caller: CallerContext): BudgetedCaller {
  const traceparent = req.headers.traceparent;
  return {
    ...caller,
    ...(typeof traceparent === 'string' && TRACEPARENT.test(traceparent) ? { traceparent } : {}),
    deadline: (req as Budgeted)[BUDGET_ENDS] ?? Date.now(),
  };
}

/** A later deadline for a call that may take longer than the request's budget (a webhook test call). */
export function atLeast(caller: BudgetedCaller, ms: number): BudgetedCaller {
  return { ...caller, deadline: Math.max(caller.deadline, Date.now() + ms) };
}
