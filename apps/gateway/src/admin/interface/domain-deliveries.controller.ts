import { Body, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiAcceptedResponse, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { deliveriesRequest } from '../../webhooks/interface/deliveries-request';
import { DispatcherClient } from '../../services/infrastructure/dispatcher.client';
import { BackfillDeliveriesDto, DeliveriesQuery, RecoverDeliveriesDto } from '../../webhooks/interface/dto/subscription.dto';
import { BackfillView, DeliveryPageView, RecoveryView, RedeliverView } from '../../webhooks/interface/dto/subscription-views';
import { adminCaller } from './admin-caller';
import { AdminDispatcherController } from './admin-dispatcher-controller';
import { DeliveryParams, DomainBackfillParams, DomainParams } from './domain-params';

/** A domain's delivery log and its redelivery, recovery and backfill, for operators (the integrator's own endpoints, any domain). */
@AdminDispatcherController('admin/Domains/:domain/Deliveries')
export class DomainDeliveriesController {
  constructor(private readonly dispatcher: DispatcherClient) {}

  @Get()
  @ApiOperation({ summary: "A domain's delivery log, as GET /WebhookSubscriptions/Deliveries shows it to the domain." })
  @ApiOkResponse({ type: DeliveryPageView })
  async list(@Param() params: DomainParams, @Query() query: DeliveriesQuery, @Req() req: FastifyRequest): Promise<DeliveryPageView> {
    return this.dispatcher.listDeliveries(adminCaller(params.domain, req), deliveriesRequest(query));
  }

  @Post('Recover')
  @HttpCode(202)
  @ApiOperation({ summary: "Send a domain's failed or skipped deliveries of a window again, as POST /WebhookSubscriptions/Deliveries/Recover." })
  @ApiAcceptedResponse({ type: RecoveryView })
  @ApiNotFoundResponse({ description: 'The domain has no subscription.' })
  @ApiConflictResponse({ description: 'The subscription is disabled: enable it first.' })
  async recover(@Param() params: DomainParams, @Body() body: RecoverDeliveriesDto, @Req() req: FastifyRequest): Promise<RecoveryView> {
    return this.dispatcher.recover(adminCaller(params.domain, req), { since: body.since, until: body.until });
  }

  @Post('Backfill')
  @HttpCode(202)
  @ApiOperation({ summary: "Queue a job that sends a domain's events still on the topic that have no delivery, as POST /WebhookSubscriptions/Deliveries/Backfill." })
  @ApiAcceptedResponse({ type: BackfillView })
  @ApiNotFoundResponse({ description: 'The domain has no subscription.' })
  @ApiConflictResponse({ description: 'The subscription is disabled (enable it first), or another backfill of the domain is queued or running (the problem names it).' })
  async backfill(@Param() params: DomainParams, @Body() body: BackfillDeliveriesDto, @Req() req: FastifyRequest): Promise<BackfillView> {
    return this.dispatcher.backfill(adminCaller(params.domain, req), { since: body.since });
  }

  @Get('Backfill/:backfillId')
  @ApiOperation({ summary: "One of a domain's backfill jobs, as GET /WebhookSubscriptions/Deliveries/Backfill/{backfillId}." })
  @ApiOkResponse({ type: BackfillView })
  @ApiNotFoundResponse({ description: 'No such backfill in the domain.' })
  async getBackfill(@Param() params: DomainBackfillParams, @Req() req: FastifyRequest): Promise<BackfillView> {
    return this.dispatcher.getBackfill(adminCaller(params.domain, req), params.backfillId);
  }

  @Delete('Backfill/:backfillId')
  @HttpCode(200)
  @ApiOperation({ summary: "Cancel a domain's queued or running backfill job, as DELETE /WebhookSubscriptions/Deliveries/Backfill/{backfillId}." })
  @ApiOkResponse({ type: BackfillView, description: 'The job, cancelled.' })
  @ApiNotFoundResponse({ description: 'No such backfill in the domain.' })
  @ApiConflictResponse({ description: 'The job has finished (done, failed or cancelled) already.' })
  async cancelBackfill(@Param() params: DomainBackfillParams, @Req() req: FastifyRequest): Promise<BackfillView> {
    return this.dispatcher.cancelBackfill(adminCaller(params.domain, req), params.backfillId);
  }

  @Post(':id/Redeliver')
  @HttpCode(202)
  @ApiOperation({ summary: 'Start a failed delivery of the domain again (a new round of the retry schedule).' })
  @ApiAcceptedResponse({ type: RedeliverView })
  @ApiNotFoundResponse({ description: 'No such delivery in the domain.' })
  @ApiConflictResponse({ description: 'The delivery is not failed.' })
  async redeliver(@Param() params: DeliveryParams, @Req() req: FastifyRequest): Promise<RedeliverView> {
    return this.dispatcher.redeliver(adminCaller(params.domain, req), params.id);
  }
}
