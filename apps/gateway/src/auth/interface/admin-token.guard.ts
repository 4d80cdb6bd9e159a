import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../../config/gateway.config';
import { NotFound, Unauthorized } from '../../problems/domain/problem';
import { ActiveSessions } from '../infrastructure/active-sessions';
import { ConsoleSessions, CSRF_HEADER } from '../domain/console-session';
import { isAdminToken } from '../domain/admin-token';
import { adminAddressKey, FailureLimit } from '../infrastructure/failure-limit';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * `/admin/*` answers only to ADMIN_TOKEN, or to the console signed in with it (its session cookie,
 * plus the session's CSRF token on a state-changing request); without an ADMIN_TOKEN configured,
 * the admin API does not exist (404).
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(
    private readonly config: GatewayConfig,
    private readonly sessions: ConsoleSessions,
    private readonly active: ActiveSessions,
    private readonly failures: FailureLimit,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const expected = this.config.ADMIN_TOKEN;
    if (!expected) throw new NotFound('No such endpoint.');
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const header = req.headers.authorization;
    if (header !== undefined) {
      if (await this.failures.checkNow([adminAddressKey(req.ip)], () => header.startsWith('Bearer ') && isAdminToken(header.slice(7), expected))) return true;
      throw new Unauthorized('A valid admin token is required.');
    }
    const session = await this.active.of(req);
    if (!session) throw new Unauthorized('A valid admin token is required.');
    if (SAFE_METHODS.has(req.method) || this.sessions.isCsrfToken(session, req.headers[CSRF_HEADER] as string | undefined)) return true;
    throw new Unauthorized('The console request lacks its CSRF token: reload the page.');
  }
}
