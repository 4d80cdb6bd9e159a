import { Get, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DispatcherClient } from '../../services/infrastructure/dispatcher.client';
import { BackfillListView } from '../../webhooks/interface/dto/subscription-views';
import { adminCaller } from './admin-caller';
import { AdminDispatcherController } from './admin-dispatcher-controller';
import { DomainParams } from './domain-params';

/** A domain's recent backfill jobs, for operators (the console's Backfills section). */
@AdminDispatcherController('admin/Domains/:domain/Backfills')
export class DomainBackfillsController {
  constructor(private readonly dispatcher: DispatcherClient) {}

  @Get()
  @ApiOperation({ summary: "A domain's 20 most recent backfill jobs, newest first, with their state and counts." })
  @ApiOkResponse({ type: BackfillListView })
  async list(@Param() params: DomainParams, @Req() req: FastifyRequest): Promise<BackfillListView> {
    return { items: await this.dispatcher.backfills(adminCaller(params.domain, req)) };
  }
}
