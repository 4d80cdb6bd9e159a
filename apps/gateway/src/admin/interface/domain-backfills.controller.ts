import { Controller, Get, Param, Req, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '@tailsync/service-kit';
import { AdminTokenGuard } from '../../auth/interface/admin-token.guard';
import { DispatcherClient } from '../../services/infrastructure/dispatcher.client';
import { BackfillListView } from '../../webhooks/interface/dto/subscription-views';
import { adminCaller } from './admin-caller';
import { DomainParams } from './domain-params';

/** A domain's recent backfill jobs, for operators (the console's Backfills section). */
@ApiTags('Admin')
@ApiBearerAuth()
@ApiBadRequestResponse({ description: 'Validation failed (problem+json with the validation object).' })
@ApiServiceUnavailableResponse({ description: 'The dispatcher did not answer in time, or is down; Retry-After: 1.' })
@Public()
@UseGuards(AdminTokenGuard)
@Controller('admin/Domains/:domain/Backfills')
export class DomainBackfillsController {
  constructor(private readonly dispatcher: DispatcherClient) {}

  @Get()
  @ApiOperation({ summary: "A domain's 20 most recent backfill jobs, newest first, with their state and counts." })
  @ApiOkResponse({ type: BackfillListView })
  async list(@Param() params: DomainParams, @Req() req: FastifyRequest): Promise<BackfillListView> {
    return { items: await this.dispatcher.backfills(adminCaller(params.domain, req)) };
  }
}
