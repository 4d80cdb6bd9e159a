import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import type { FastifyRequest } from 'fastify';
import { Unauthorized } from '../../problems/domain/problem';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from '../domain/access-token';
import { VerifiedTokens, type VerifiedClaims } from '../domain/verified-tokens';
import { AuthenticatedRequest } from './caller.decorator';
import { RevokedAccounts } from '../application/revoked-accounts';
import { PUBLIC_ROUTE } from '@tailsync/service-kit';
import { budgetedCaller } from '../../services/infrastructure/request-budget';

/** Every endpoint not marked @Public() needs `Authorization: Bearer <access token>`. */
@Injectable()
export class BearerGuard implements CanActivate {
  private readonly verified = new VerifiedTokens();

  constructor(
    private readonly reflector: Reflector,
    private readonly jwt: JwtService,
    private readonly revoked: RevokedAccounts,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    const match = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(req.headers.authorization ?? '');
    if (!match) throw new Unauthorized();
    const claims = this.verified.get(match[1], Date.now()) ?? (await this.verify(match[1]));
    if (this.revoked.isRevoked(claims.sub, claims.iat_ms)) throw new Unauthorized('The access token is invalid or expired.');
    req.caller = budgetedCaller(req, { domain: claims.dom, source: claims.sub, role: 'tenant', requestId: req.id });
    return true;
  }

  private async verify(token: string): Promise<VerifiedClaims> {
    let claims: Partial<VerifiedClaims>;
    try {
      claims = await this.jwt.verifyAsync<VerifiedClaims>(token, {
        algorithms: ['HS256'],
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
      });
    } catch {
      throw new Unauthorized('The access token is invalid or expired.');
    }
    const { sub, dom, exp, iat } = claims as Partial<VerifiedClaims> & { iat?: number };
    // Tokens without an expiry are not ours (/oauth/token always sets one): never accepted.
    if (typeof sub !== 'string' || typeof dom !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') throw new Unauthorized('The access token is invalid or expired.');
    // A token issued before iat_ms existed counts from the start of its second: refused if in doubt.
    const verified = { sub, dom, exp, iat_ms: typeof claims.iat_ms === 'number' ? claims.iat_ms : iat * 1000 };
    this.verified.remember(token, verified);
    return verified;
  }
}
