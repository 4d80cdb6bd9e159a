import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse, ApiBadRequestResponse, ApiBearerAuth, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DeliveryPage, RecoverDeliveriesResult, RedeliverResult, WEBHOOK_PATTERNS } from '@tailsync/contracts';
import { Public } from '@tailsync/service-kit';
import { AdminTokenGuard } from '../auth/admin-token.guard';
import { unwrap } from '../rpc/reply';
import { deliveriesRequest } from '../webhooks/deliveries-request';
import { ServicesClient } from '../rpc/services.client';
import { DeliveriesQuery, RecoverDeliveriesDto } from '../webhooks/dto/subscription.dto';
import { DeliveryPageView, RecoveryView, RedeliverView } from '../webhooks/dto/subscription-views';
import { adminCaller } from './admin-caller';
import { DeliveryParams, DomainParams } from './domain-params';

/** A domain's delivery log and its redelivery and recovery, for operators (the integrator's own endpoints, any domain). */
@ApiTags('Admin')
@ApiBearerAuth()
@ApiBadRequestResponse({ description: 'Validation failed (problem+json with the validation object).' })
@ApiServiceUnavailableResponse({ description: 'The dispatcher did not answer in time, or is down; Retry-After: 1.' })
@Public()
@UseGuards(AdminTokenGuard)
@Controller('admin/Domains/:domain/Deliveries')
export class DomainDeliveriesController {
  constructor(private readonly services: ServicesClient) {}

  @Get()
  @ApiOperation({ summary: "A domain's delivery log, as GET /WebhookSubscriptions/Deliveries shows it to the domain." })
  @ApiOkResponse({ type: DeliveryPageView })
  async list(@Param() params: DomainParams, @Query() query: DeliveriesQuery, @Req() req: FastifyRequest): Promise<DeliveryPageView> {
    return unwrap(
      await this.services.call<DeliveryPage>(WEBHOOK_PATTERNS.listDeliveries, adminCaller(params.domain, req), deliveriesRequest(query)),
    );
  }

  @Post('Recover')
  @HttpCode(202)
  @ApiOperation({ summary: "Send a domain's failed or skipped deliveries of a window again, as POST /WebhookSubscriptions/Deliveries/Recover." })
  @ApiAcceptedResponse({ type: RecoveryView })
  @ApiNotFoundResponse({ description: 'The domain has no subscription.' })
  @ApiConflictResponse({ description: 'The subscription is disabled: enable it first.' })
  async recover(@Param() params: DomainParams, @Body() body: RecoverDeliveriesDto, @Req() req: FastifyRequest): Promise<RecoveryView> {
    return unwrap(await this.services.call<RecoverDeliveriesResult>(WEBHOOK_PATTERNS.recover, adminCaller(params.domain, req), { since: body.since, until: body.until }));
  }

  @Post(':id/Redeliver')
  @HttpCode(202)
  @ApiOperation({ summary: 'Start a failed delivery of the domain again (a new round of the retry schedule).' })
  @ApiAcceptedResponse({ type: RedeliverView })
  @ApiNotFoundResponse({ description: 'No such delivery in the domain.' })
  @ApiConflictResponse({ description: 'The delivery is not failed.' })
  async redeliver(@Param() params: DeliveryParams, @Req() req: FastifyRequest): Promise<RedeliverView> {
    return unwrap(await this.services.call<RedeliverResult>(WEBHOOK_PATTERNS.redeliver, adminCaller(params.domain, req), { id: params.id }));
  }
}
