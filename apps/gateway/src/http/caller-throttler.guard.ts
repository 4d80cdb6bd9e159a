import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedRequest } from '../auth/caller.decorator';
import { RateLimited } from '../problems/problem';
import { pathOf } from './path-of';

/**
 * Rate limit per service account (per client address before authentication, e.g. at
 * /oauth/token). Runs after the bearer guard, which identifies the caller.
 */
@Injectable()
export class CallerThrottlerGuard extends ThrottlerGuard {
  protected async getTracker(req: Record<string, unknown> & AuthenticatedRequest): Promise<string> {
    return req.caller ? `sa:${req.caller.source}` : `ip:${String(req.ip)}`;
  }

  /** Probes of operators' monitoring are never limited. */
  protected async shouldSkip(context: ExecutionContext): Promise<boolean> {
    const path = pathOf(context.switchToHttp().getRequest<FastifyRequest>());
    return path.startsWith('/health/') || path === '/metrics';
  }

  protected async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new RateLimited(Math.max(1, Math.ceil(detail.timeToExpire)));
  }
}
