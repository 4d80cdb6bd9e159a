import type { FastifyRequest } from 'fastify';
import { validTraceparent } from '@tailsync/service-kit';
import type { BudgetedCaller } from './service-channel';

const BUDGET_ENDS = Symbol('budgetEnds');
type Budgeted = { [BUDGET_ENDS]?: number };

/** Starts the request's budget as it arrives: every service call it makes must answer within it. */
export function startBudget(req: FastifyRequest, budgetMs: number): void {
  (req as Budgeted)[BUDGET_ENDS] = Date.now() + budgetMs;
}

/** The caller as its service calls carry it: the request's deadline and its trace context. */
export function budgetedCaller(req: FastifyRequest, caller: Omit<BudgetedCaller, 'deadline' | 'traceparent'>): BudgetedCaller {
  const traceparent = validTraceparent(req.headers.traceparent);
  return {
    ...caller,
    ...(traceparent !== undefined ? { traceparent } : {}),
    deadline: (req as Budgeted)[BUDGET_ENDS] ?? Date.now(),
  };
}

/** A later deadline for a call that may take longer than the request's budget (a webhook test call). */
export function atLeast(caller: BudgetedCaller, ms: number): BudgetedCaller {
  return { ...caller, deadline: Math.max(caller.deadline, Date.now() + ms) };
}
