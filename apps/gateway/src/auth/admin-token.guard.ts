import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway.config';
import { NotFound, Unauthorized } from '../problems/problem';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `/admin/*` answers only to ADMIN_TOKEN; without one configured, the admin API does not exist (404). */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly config: GatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.config.ADMIN_TOKEN;
    if (!expected) throw new NotFound('No such endpoint.');
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    // Digests make the comparison constant-time whatever the lengths.
    if (!given || !timingSafeEqual(digest(given), digest(expected))) throw new Unauthorized('A valid admin token is required.');
    return true;
  }
}
