import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { CallerContext } from '@tailsync/contracts';

export interface AuthenticatedRequest {
  caller?: CallerContext;
}

/** The authenticated service account behind the request: its domain and mapping source. */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): CallerContext => {
  const caller = ctx.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new Error('@Caller() used on a public route');
  return caller;
});
