import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedRequest } from './caller.decorator';
import { isProbe } from '@tailsync/service-kit';
import { RateLimited } from '../../problems/domain/problem';

/**
 * Rate limit per service account (per client address before authentication, e.g. at
 * /oauth/token). Runs after the bearer guard, which identifies the caller.
 */
@Injectable()
export class CallerThrottlerGuard extends ThrottlerGuard {
  protected async getTracker(req: Record<string, unknown> & AuthenticatedRequest): Promise<string> {
    return req.caller ? `sa:${req.caller.source}` : `ip:${String(req.ip)}`;
  }

  /**
   * The throttler's key, as the library builds it (route and caller) but not hashed: the counters
   * live in this process's memory, so the SHA-256 it takes of every key only costs CPU.
   */
  protected generateKey(context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${context.getClass().name}-${context.getHandler().name}-${throttlerName}-${tracker}`;
  }

  /** Probes of operators' monitoring are never limited. */
  protected async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return isProbe(context.switchToHttp().getRequest<FastifyRequest>());
  }

  protected async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new RateLimited(Math.max(1, Math.ceil(detail.timeToExpire)));
  }
}
