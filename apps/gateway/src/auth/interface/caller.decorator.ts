import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { BudgetedCaller } from '../../services/infrastructure/service-channel';

export interface AuthenticatedRequest {
  caller?: BudgetedCaller;
}

/** The authenticated service account behind the request: its domain and mapping source, and the request's deadline. */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): BudgetedCaller => {
  const caller = ctx.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new Error('@Caller() used on a public route');
  return caller;
});
