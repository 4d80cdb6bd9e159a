import { Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiNotFoundResponse, ApiOkResponse, ApiOperation,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DispatcherClient } from '../../services/infrastructure/dispatcher.client';
import { SigningKeysPageView } from '../../webhooks/interface/dto/subscription-views';
import { adminCaller } from './admin-caller';
import { AdminDispatcherController } from './admin-dispatcher-controller';
import { DomainParams, DomainSigningKeyParams } from './domain-params';

/** A domain's Ed25519 signing keys, and revoking one in an emergency (a key the operator knows leaked). */
@AdminDispatcherController('admin/Domains/:domain/SigningKeys')
export class DomainSigningKeysController {
  constructor(private readonly dispatcher: DispatcherClient) {}

  @Get()
  @ApiOperation({ summary: "A domain's Ed25519 signing keys, as GET /WebhookSubscriptions/SigningKeys shows them to the domain (empty when it has none)." })
  @ApiOkResponse({ type: SigningKeysPageView })
  async list(@Param() params: DomainParams, @Req() req: FastifyRequest): Promise<SigningKeysPageView> {
    return this.dispatcher.signingKeys(adminCaller(params.domain, req));
  }

  @Post(':kid/Revoke')
  @HttpCode(200)
  @ApiOperation({
    summary: "Revoke a domain's signing key now: it leaves the JWK Set at once and, when it was signing, the next key signs at once (a new one is made when none waits).",
    description: 'The twin of POST /WebhookSubscriptions/SigningKeys/{kid}/Revoke, for an operator. Announced on tailsync.webhook-subscriptions as SigningKeyRevoked with revokedBy `operator`.',
  })
  @ApiOkResponse({ type: SigningKeysPageView, description: 'The keys after the revocation.' })
  @ApiNotFoundResponse({ description: 'The domain publishes no key of that kid (revoked or retired already, or never).' })
  async revoke(@Param() params: DomainSigningKeyParams, @Req() req: FastifyRequest): Promise<SigningKeysPageView> {
    return this.dispatcher.revokeSigningKeyByOperator(adminCaller(params.domain, req), params.kid);
  }
}
