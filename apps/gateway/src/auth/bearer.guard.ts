import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import type { FastifyRequest } from 'fastify';
import { Unauthorized } from '../problems/problem';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, AccessTokenClaims } from './access-token';
import { AuthenticatedRequest } from './caller.decorator';
import { PUBLIC_ROUTE } from '@tailsync/service-kit';

/** Every endpoint not marked @Public() needs `Authorization: Bearer <access token>`. */
@Injectable()
export class BearerGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly jwt: JwtService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    const match = /^Bearer ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(req.headers.authorization ?? '');
    if (!match) throw new Unauthorized();
    let claims: AccessTokenClaims;
    try {
      claims = await this.jwt.verifyAsync<AccessTokenClaims>(match[1], {
        algorithms: ['HS256'],
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
      });
    } catch {
      throw new Unauthorized('The access token is invalid or expired.');
    }
    if (typeof claims.sub !== 'string' || typeof claims.dom !== 'string') throw new Unauthorized('The access token is invalid or expired.');
    req.caller = { domain: claims.dom, source: claims.sub, requestId: req.id };
    return true;
  }
}
