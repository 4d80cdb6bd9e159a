import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@tailsync/service-kit';
import { IsDefined, IsString, Matches } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DOMAIN_MESSAGE, DOMAIN_PATTERN } from '../../http/domain-name';
import { DispatcherClient } from '../../services/infrastructure/dispatcher.client';
import { budgetedCaller } from '../../services/infrastructure/request-budget';
import { JwksView } from './dto/subscription-views';

export class JwksQuery {
  @ApiProperty({ example: 'acme', pattern: DOMAIN_PATTERN.source, description: 'The domain whose keys sign its callbacks.' })
  @IsDefined({ message: 'domain is required.' })
  @IsString({ message: DOMAIN_MESSAGE })
  @Matches(DOMAIN_PATTERN, { message: DOMAIN_MESSAGE })
  domain: string;
}

/**
 * The public keys that sign a domain's callbacks (`signatureScheme: "ed25519"`), for receivers that
 * hold no shared secret. Public and cacheable: public keys reveal nothing, and a receiver fetches
 * them from a well-known URL before it has any credential.
 */
@ApiTags('Webhook subscriptions')
@Public()
@Controller('.well-known/webhooks')
export class JwksController {
  constructor(private readonly dispatcher: DispatcherClient) {}

  @Get('jwks.json')
  @ApiOperation({
    summary: "A domain's webhook signing keys as a JWK Set (public, cacheable).",
    description: 'Ed25519 keys (RFC 8037), each named by its kid (RFC 7638 thumbprint), the kid of the JWTs it signs. A new key appears at least the grace period (WEBHOOK_SECRET_GRACE_SECONDS) before it signs, and an old one stays that long after its last signature. Empty when the domain has no key.',
  })
  @ApiProduces('application/jwk-set+json')
  @ApiOkResponse({ type: JwksView, description: 'Content-Type application/jwk-set+json; Cache-Control public, max-age ≤ 300 s.' })
  @ApiBadRequestResponse({ description: 'domain is missing or malformed.' })
  @ApiServiceUnavailableResponse({ description: 'The dispatcher did not answer in time, or is down; Retry-After: 1.' })
  async jwks(@Query() query: JwksQuery, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<JwksView> {
    const { keys, maxAgeSeconds } = await this.dispatcher.signingKeySet(budgetedCaller(req, { domain: query.domain, source: 'jwks', role: 'public', requestId: req.id }));
    void reply.header('Content-Type', 'application/jwk-set+json').header('Cache-Control', `public, max-age=${maxAgeSeconds}`);
    return { keys };
  }
}
